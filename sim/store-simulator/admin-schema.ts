// The subset of Shopify's Admin GraphQL schema (2026-10) that the app uses or will use, with Shopify's
// names. A selection outside it is refused by validation, like Shopify refuses an unknown field.
//
// Deliberate differences: fields Shopify declares non-null are nullable here where a test's REST order may
// leave the source field out (timestamps, names, totals), so a sparse order answers null instead of failing
// the whole order; CurrencyCode is a scalar rather than Shopify's enum of every ISO code.

import { buildSchema } from 'graphql';
import { ORDER_SDL } from './admin-order-schema.ts';
import { LOCATIONS_SDL } from './locations.ts';
import { FLOW_SDL } from './flow-triggers.ts';

export const ADMIN_SDL = /* GraphQL */ `
  scalar DateTime
  scalar Decimal
  scalar UnsignedInt64
  scalar JSON
  scalar CurrencyCode

  type Query {
    order(id: ID!): Order
    orders(first: Int, after: String, query: String, reverse: Boolean): OrderConnection!
    customer(id: ID!): Customer
    refund(id: ID!): Refund
    shop: Shop!
  }

  type Shop {
    name: String!
    myshopifyDomain: String!
    email: String!
    contactEmail: String!
  }

  type Mutation {
    metafieldsSet(metafields: [MetafieldsSetInput!]!): MetafieldsSetPayload
  }

  interface Node {
    id: ID!
  }

  interface HasMetafields {
    metafield(namespace: String, key: String!): Metafield
  }

  type PageInfo {
    hasNextPage: Boolean!
    hasPreviousPage: Boolean!
    startCursor: String
    endCursor: String
  }

  type MoneyV2 {
    amount: Decimal!
    currencyCode: CurrencyCode!
  }

  type MoneyBag {
    shopMoney: MoneyV2!
    presentmentMoney: MoneyV2!
  }

  type Attribute {
    key: String!
    value: String
  }

  enum OrderDisplayFinancialStatus {
    AUTHORIZED
    EXPIRED
    PAID
    PARTIALLY_PAID
    PARTIALLY_REFUNDED
    PENDING
    REFUNDED
    VOIDED
  }

  type Order implements Node & HasMetafields {
    id: ID!
    legacyResourceId: UnsignedInt64!
    name: String
    email: String
    note: String
    test: Boolean!
    createdAt: DateTime
    updatedAt: DateTime
    processedAt: DateTime
    cancelledAt: DateTime
    displayFinancialStatus: OrderDisplayFinancialStatus
    currencyCode: CurrencyCode
    taxesIncluded: Boolean!
    customAttributes: [Attribute!]!
    totalPriceSet: MoneyBag
    currentTotalPriceSet: MoneyBag
    totalRefundedSet: MoneyBag!
    customer: Customer
    purchasingEntity: PurchasingEntity
    refunds(first: Int): [Refund!]!
    transactions(first: Int): [OrderTransaction!]!
    metafield(namespace: String, key: String!): Metafield
    # What an order reads as for invoicing (admin-order-schema.ts has the types).
    presentmentCurrencyCode: CurrencyCode
    taxExempt: Boolean!
    phone: String
    customerLocale: String
    paymentGatewayNames: [String!]!
    currentTotalTaxSet: MoneyBag
    totalTaxSet: MoneyBag
    totalTipReceivedSet: MoneyBag!
    currentTotalDutiesSet: MoneyBag
    currentTotalAdditionalFeesSet: MoneyBag
    totalCashRoundingAdjustment: CashRoundingAdjustment!
    lineItems(first: Int, after: String): LineItemConnection!
    shippingLines(first: Int, after: String, includeRemovals: Boolean = false): ShippingLineConnection!
    billingAddress: MailingAddress
    shippingAddress: MailingAddress
  }

  type OrderEdge {
    cursor: String!
    node: Order!
  }

  type OrderConnection {
    edges: [OrderEdge!]!
    nodes: [Order!]!
    pageInfo: PageInfo!
  }

  type Customer implements Node & HasMetafields {
    id: ID!
    legacyResourceId: UnsignedInt64!
    email: String
    firstName: String
    lastName: String
    displayName: String!
    locale: String!
    phone: String
    metafield(namespace: String, key: String!): Metafield
  }

  union PurchasingEntity = Customer | PurchasingCompany

  type PurchasingCompany {
    company: Company!
    location: CompanyLocation!
  }

  type Company implements Node {
    id: ID!
    name: String!
  }

  type CompanyLocation implements Node {
    id: ID!
    name: String!
    taxSettings: CompanyLocationTaxSettings!
  }

  type CompanyLocationTaxSettings {
    taxRegistrationId: String
    taxExempt: Boolean!
  }

  enum MetafieldOwnerType {
    CUSTOMER
    ORDER
  }

  type Metafield implements Node {
    id: ID!
    namespace: String!
    key: String!
    type: String!
    value: String!
    jsonValue: JSON!
    compareDigest: String!
    ownerType: MetafieldOwnerType!
    owner: HasMetafields!
    createdAt: DateTime!
    updatedAt: DateTime!
  }

  input MetafieldsSetInput {
    ownerId: ID!
    namespace: String
    key: String!
    value: String!
    type: String
    compareDigest: String
  }

  enum MetafieldsSetUserErrorCode {
    BLANK
    INVALID
    INVALID_COMPARE_DIGEST
    INVALID_TYPE
    INVALID_VALUE
    LESS_THAN_OR_EQUAL_TO
    TOO_LONG
    TOO_SHORT
  }

  type MetafieldsSetUserError {
    field: [String!]
    message: String!
    code: MetafieldsSetUserErrorCode
  }

  type MetafieldsSetPayload {
    metafields: [Metafield!]
    userErrors: [MetafieldsSetUserError!]!
  }

  enum OrderTransactionKind {
    AUTHORIZATION
    CAPTURE
    CHANGE
    EMV_AUTHORIZATION
    REFUND
    SALE
    SUGGESTED_REFUND
    VOID
  }

  enum OrderTransactionStatus {
    AWAITING_RESPONSE
    ERROR
    FAILURE
    PENDING
    SUCCESS
    UNKNOWN
  }

  type OrderTransaction implements Node {
    id: ID!
    kind: OrderTransactionKind!
    status: OrderTransactionStatus!
    gateway: String
    formattedGateway: String
    manualPaymentGateway: Boolean!
    test: Boolean!
    processedAt: DateTime
    amountSet: MoneyBag!
    parentTransaction: OrderTransaction
  }

  type OrderTransactionEdge {
    cursor: String!
    node: OrderTransaction!
  }

  type OrderTransactionConnection {
    edges: [OrderTransactionEdge!]!
    nodes: [OrderTransaction!]!
    pageInfo: PageInfo!
  }

  enum ReturnStatus {
    CANCELED
    CLOSED
    DECLINED
    OPEN
    REQUESTED
  }

  type Return implements Node {
    id: ID!
    name: String!
    status: ReturnStatus!
  }

  type Refund implements Node {
    id: ID!
    legacyResourceId: UnsignedInt64!
    createdAt: DateTime
    processedAt: DateTime
    note: String
    return: Return
    totalRefundedSet: MoneyBag!
    order: Order!
    refundLineItems(first: Int, after: String): RefundLineItemConnection!
    refundShippingLines(first: Int, after: String): RefundShippingLineConnection!
    orderAdjustments(first: Int, after: String): OrderAdjustmentConnection!
    duties: [RefundDuty!]
    transactions(first: Int, after: String): OrderTransactionConnection!
  }

  enum RefundLineItemRestockType {
    CANCEL
    LEGACY_RESTOCK
    NO_RESTOCK
    RETURN
  }

  type RefundLineItem {
    id: ID!
    quantity: Int!
    restockType: RefundLineItemRestockType!
    restocked: Boolean!
    priceSet: MoneyBag!
    subtotalSet: MoneyBag!
    totalTaxSet: MoneyBag!
    lineItem: LineItem!
  }

  type RefundLineItemEdge {
    cursor: String!
    node: RefundLineItem!
  }

  type RefundLineItemConnection {
    edges: [RefundLineItemEdge!]!
    nodes: [RefundLineItem!]!
    pageInfo: PageInfo!
  }

  type RefundShippingLine {
    id: ID!
    shippingLine: ShippingLine!
    subtotalAmountSet: MoneyBag!
    taxAmountSet: MoneyBag!
  }

  type RefundShippingLineEdge {
    cursor: String!
    node: RefundShippingLine!
  }

  type RefundShippingLineConnection {
    edges: [RefundShippingLineEdge!]!
    nodes: [RefundShippingLine!]!
    pageInfo: PageInfo!
  }

  enum OrderAdjustmentDiscrepancyReason {
    CUSTOMER
    DAMAGE
    FULL_RETURN_BALANCING_ADJUSTMENT
    PENDING_REFUND_DISCREPANCY
    REFUND_DISCREPANCY
    RESTOCK
  }

  type OrderAdjustment implements Node {
    id: ID!
    reason: OrderAdjustmentDiscrepancyReason
    amountSet: MoneyBag!
    taxAmountSet: MoneyBag!
  }

  type OrderAdjustmentEdge {
    cursor: String!
    node: OrderAdjustment!
  }

  type OrderAdjustmentConnection {
    edges: [OrderAdjustmentEdge!]!
    nodes: [OrderAdjustment!]!
    pageInfo: PageInfo!
  }

  type Duty implements Node {
    id: ID!
  }

  type RefundDuty {
    amountSet: MoneyBag!
    originalDuty: Duty
  }
`;

export const adminSchema = buildSchema(`${ADMIN_SDL}\n${ORDER_SDL}\n${LOCATIONS_SDL}\n${FLOW_SDL}`);
