import * as z from 'zod/mini';
import { instantField } from '../record/viewFields';

/**
 * What an export used and cost, and a listing's total of them, as zod/mini schemas: the types
 * ./exportUsage.ts, ./exportCost.ts and ./totalOfExports.ts build are inferred from them, the
 * OpenAPI document is generated from them and the CLI checks the answers with them. The
 * functions import only the types.
 */

const count = (description: string) => z.int().check(z.gte(0), z.describe(description));
const usd = (description: string) => z.number().check(z.gte(0), z.describe(`US dollars: ${description}`));

export const exportUsageSchema = z
  .object({
    stateTransitions: count('Step Functions state transitions (what Standard workflows bill).'),
    taskInvocations: count('Lambda invocations: the start, each create attempt, each poll, the archive.'),
    billedGbSeconds: z
      .number()
      .check(
        z.gte(0),
        z.describe("Their billed duration times memory (estimated from the price table's sizes)."),
      ),
    upstreamCalls: count('Creates and status calls to OpenWeb.'),
    tableReads: count('DynamoDB read units, as the code path reads.'),
    tableWrites: count('DynamoDB write units, as the code path writes.'),
    archiveBytes: count('Bytes the archive stores for the export.'),
    archiveFiles: count('Objects the archive stored (gzip CSV and Parquet).'),
  })
  .register(z.globalRegistry, {
    id: 'ExportUsage',
    description:
      'What the export used so far, counted from its record and the path it took through the workflow.',
  });

/**
 * What one export used, counted from its record and the path it took through the workflow
 * (infra/PollingWorkflow.ts): state transitions, Lambda invocations and their billed GB-seconds,
 * upstream calls (creates and status polls; auth calls are shared per spot, not counted),
 * DynamoDB request units, and the archive's bytes and files.
 */
export type ExportUsage = z.infer<typeof exportUsageSchema>;

export const exportCostSchema = z
  .object({
    stepFunctionsUsd: usd('state transitions.'),
    lambdaUsd: usd('requests and GB-seconds.'),
    dynamoDbUsd: usd('on-demand request units.'),
    otherUsd: usd("the start's API request, the terminal event, credentials reads, the archive's PUTs."),
    totalUsd: usd('the sum of the above.'),
    archivePerMonthUsd: usd('storing its archive, per month kept (not in the total).'),
    pricedFor: z
      .object({
        region: z.string().check(z.describe('The AWS region of the prices.')),
        asOf: z.string().check(z.describe('When they were read from the pricing pages (`YYYY-MM`).')),
      })
      .check(z.describe('Where the prices are from.')),
  })
  .register(z.globalRegistry, {
    id: 'ExportCost',
    description: "Estimated AWS charges, before free tiers, at the deployment's price table.",
  });

/** An export's estimated AWS charges, in US dollars, before free tiers, by service. */
export type ExportCost = z.infer<typeof exportCostSchema>;

export const exportsTotalSchema = z
  .object({
    exports: count('Exports summed.'),
    from: z.optional(instantField).check(z.describe('The earliest `requestedAt` among them.')),
    until: z.optional(instantField).check(z.describe('The latest `requestedAt` among them.')),
    usage: exportUsageSchema,
    cost: exportCostSchema,
  })
  .register(z.globalRegistry, {
    id: 'ExportsTotal',
    description: "The sums of the listed exports' `usage` and `cost`: the spot's, over the period they span.",
  });

/** What a set of exports (a spot's, over a period) used and cost together; `from`/`until` absent for none. */
export type ExportsTotal = z.infer<typeof exportsTotalSchema>;
