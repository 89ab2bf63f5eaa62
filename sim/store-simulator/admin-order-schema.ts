// The order's lines, shipping, addresses and rounding in Shopify's Admin GraphQL schema (2026-10), with Shopify's
// names: what an app reads to invoice an order (Order.lineItems, Order.shippingLines, the addresses, the totals).
// Also the line types a refund's lines share. Deliberate difference: CountryCode is a scalar rather than Shopify's
// enum of every ISO code.

export const ORDER_SDL = /* GraphQL */ `
  scalar CountryCode

  type TaxLine {
    rate: Float
    ratePercentage: Float
    title: String!
    priceSet: MoneyBag!
  }

  interface DiscountApplication {
    index: Int!
  }

  type ManualDiscountApplication implements DiscountApplication {
    index: Int!
  }

  type DiscountCodeApplication implements DiscountApplication {
    index: Int!
  }

  type AutomaticDiscountApplication implements DiscountApplication {
    index: Int!
  }

  type DiscountAllocation {
    allocatedAmountSet: MoneyBag!
    discountApplication: DiscountApplication!
  }

  type ProductVariant implements Node {
    id: ID!
    barcode: String
  }

  type Product implements Node {
    id: ID!
  }

  type LineItem implements Node {
    id: ID!
    name: String!
    title: String!
    variantTitle: String
    sku: String
    variant: ProductVariant
    product: Product
    quantity: Int!
    currentQuantity: Int!
    taxable: Boolean!
    isGiftCard: Boolean!
    originalUnitPriceSet: MoneyBag!
    taxLines(first: Int): [TaxLine!]!
    discountAllocations: [DiscountAllocation!]!
  }

  type LineItemEdge {
    cursor: String!
    node: LineItem!
  }

  type LineItemConnection {
    edges: [LineItemEdge!]!
    nodes: [LineItem!]!
    pageInfo: PageInfo!
  }

  type ShippingLine {
    id: ID
    title: String!
    code: String
    isRemoved: Boolean!
    originalPriceSet: MoneyBag!
    discountedPriceSet: MoneyBag!
    taxLines: [TaxLine!]!
    discountAllocations: [DiscountAllocation!]!
  }

  type ShippingLineEdge {
    cursor: String!
    node: ShippingLine!
  }

  type ShippingLineConnection {
    edges: [ShippingLineEdge!]!
    nodes: [ShippingLine!]!
    pageInfo: PageInfo!
  }

  type MailingAddress {
    name: String
    firstName: String
    lastName: String
    company: String
    address1: String
    address2: String
    city: String
    province: String
    provinceCode: String
    countryCodeV2: CountryCode
    zip: String
    phone: String
  }

  type CashRoundingAdjustment {
    paymentSet: MoneyBag!
    refundSet: MoneyBag!
  }
`;
