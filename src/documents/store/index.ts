// The documents store: the only module that speaks SQL to the documents table (and its PDFs, fiscal numbering and
// gateway-call audit). Each file holds the statements of one caller's job; every function takes the database (or a
// transaction) first.
export * from './answer-check-statements.ts';
export * from './correction-statements.ts';
export * from './document-rows.ts';
export * from './email-statements.ts';
export * from './intake-statements.ts';
export * from './lease-statements.ts';
export * from './order-statements.ts';
export * from './privacy-statements.ts';
export * from './query-statements.ts';
export * from './replacement-statements.ts';
export * from './series-statements.ts';
export * from './report-statements.ts';
export * from './buyer-statements.ts';
export * from './bulk-statements.ts';
export * from './backfill-statements.ts';
export * from './flow-statements.ts';
