// One Admin GraphQL request run with graphql-js against the simulator's schema: parse, validate (an unknown
// field is refused with Shopify's wording and code), execute over the shop's state, and price the answer
// the way Shopify's `extensions.cost` reports it.

import {
  type ASTVisitor,
  type DocumentNode,
  type ExecutionResult,
  FieldsOnCorrectTypeRule,
  GraphQLError,
  Kind,
  type ValidationContext,
  execute,
  getOperationAST,
  parse,
  specifiedRules,
  validate,
} from 'graphql';
import { adminRoot } from './admin-resolvers.ts';
import { adminSchema } from './admin-schema.ts';
import type { AdminContext } from './order-views.ts';
import { isRecord } from './rest-values.ts';
import type { CallOutcome } from './types.ts';

/** Shopify (graphql-ruby) words an unknown field this way, with an `undefinedField` code. */
function ShopifyFieldsOnCorrectTypeRule(context: ValidationContext): ASTVisitor {
  return {
    Field(node) {
      const type = context.getParentType();
      if (!type || context.getFieldDef()) return;
      const fieldName = node.name.value;
      context.reportError(
        new GraphQLError(`Field '${fieldName}' doesn't exist on type '${type.name}'`, {
          nodes: node,
          extensions: { code: 'undefinedField', typeName: type.name, fieldName },
        }),
      );
    },
  };
}

const RULES = [...specifiedRules.filter((rule) => rule !== FieldsOnCorrectTypeRule), ShopifyFieldsOnCorrectTypeRule];

export interface ParsedOperation {
  document?: DocumentNode;
  /** Distinct root field names joined by ',', or 'unknown' (what the call log records). */
  operation: string;
  isMutation: boolean;
  /** Syntax or validation errors: the operation is not run. */
  errors: readonly GraphQLError[];
}

// The app sends a handful of query texts over and over: parse and validate each once.
const prepared = new Map<string, { document?: DocumentNode; errors: readonly GraphQLError[] }>();
const PREPARED_MAX = 200;

function prepare(query: string): { document?: DocumentNode; errors: readonly GraphQLError[] } {
  let entry = prepared.get(query);
  if (entry) return entry;
  try {
    const document = parse(query);
    entry = { document, errors: validate(adminSchema, document, RULES) };
  } catch (e) {
    entry = { errors: [e instanceof GraphQLError ? e : new GraphQLError('The query could not be parsed.')] };
  }
  if (prepared.size >= PREPARED_MAX) prepared.delete(prepared.keys().next().value ?? '');
  prepared.set(query, entry);
  return entry;
}

export function parseOperation(query: string, operationName: string | undefined): ParsedOperation {
  const { document, errors } = prepare(query);
  const op = document ? getOperationAST(document, operationName) : undefined;
  const roots = (op?.selectionSet.selections ?? []).flatMap((s) =>
    s.kind === Kind.FIELD && s.name.value !== '__typename' ? [s.name.value] : [],
  );
  return {
    ...(document ? { document } : {}),
    operation: roots.length > 0 ? [...new Set(roots)].join(',') : 'unknown',
    isMutation: op?.operation === 'mutation',
    errors,
  };
}

export interface GraphqlAnswer {
  body: Record<string, unknown>;
  outcome: CallOutcome;
}

export async function runAdminGraphql(
  parsed: ParsedOperation,
  variables: Record<string, unknown>,
  operationName: string | undefined,
  ctx: AdminContext,
): Promise<GraphqlAnswer> {
  const { document, errors } = parsed;
  if (!document || errors.length > 0) return { body: { errors: errors.map((e) => e.toJSON()) }, outcome: 'graphql_errors' };

  const result: ExecutionResult = await execute({
    schema: adminSchema,
    document,
    rootValue: adminRoot(ctx),
    contextValue: ctx,
    variableValues: variables,
    operationName,
  });
  const cost = queryCost(result.data, parsed.isMutation);
  const body: Record<string, unknown> = {
    ...(result.errors ? { errors: result.errors.map((e) => e.toJSON()) } : {}),
    ...('data' in result ? { data: result.data } : {}),
    extensions: costExtension(cost),
  };
  const outcome: CallOutcome = result.errors ? 'graphql_errors' : ctx.userErrors ? 'user_errors' : 'ok';
  return { body, outcome };
}

/** Shopify's `extensions.cost`; `available` defaults to a full bucket less this call. */
export function costExtension(cost: number, available = 2000 - cost): Record<string, unknown> {
  return {
    cost: {
      requestedQueryCost: cost,
      actualQueryCost: cost,
      throttleStatus: { maximumAvailable: 2000, currentlyAvailable: available, restoreRate: 100 },
    },
  };
}

/** Shopify's rule of thumb: one point per object returned, ten per mutation. */
function queryCost(data: unknown, isMutation: boolean): number {
  const objects = (value: unknown): number => {
    if (Array.isArray(value)) return value.reduce((n: number, v) => n + objects(v), 0);
    if (!isRecord(value)) return 0;
    return 1 + Object.values(value).reduce((n: number, v) => n + objects(v), 0);
  };
  return Math.max(1, objects(data) - 1) + (isMutation ? 10 : 0);
}
