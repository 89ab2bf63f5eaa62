// The `shopify` global Shopify gives the block's module, typed for its target (as the Shopify CLI's
// generated shopify.d.ts does). Importing the target's types also declares its Polaris web components.
import type { Api } from '@shopify/ui-extensions/admin.order-details.block.render';

declare global {
  const shopify: Api;
}
