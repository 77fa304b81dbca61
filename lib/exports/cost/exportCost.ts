import type { ExportCost, ExportUsage } from './exportCostSchema';
import type { PriceTable } from './PriceTable';

/** An export's estimated AWS charges (./exportCostSchema.ts). */
export type { ExportCost };

const BYTES_PER_GB = 1024 ** 3;
/** Each export's start is one API request (or schedule invocation), its end one event; credentials are read at most three times (cached 5 minutes per container). */
const OTHER_CALLS = { apiRequests: 1, events: 1, secretReads: 3 } as const;

/** What `usage` costs at `prices`: every figure is a count times a list price. */
export function estimateExportCost(usage: ExportUsage, prices: PriceTable): ExportCost {
  const stepFunctionsUsd = usage.stateTransitions * prices.stepFunctionsPerTransitionUsd;
  const lambdaUsd =
    usage.taskInvocations * prices.lambdaPerRequestUsd + usage.billedGbSeconds * prices.lambdaPerGbSecondUsd;
  const dynamoDbUsd =
    usage.tableWrites * prices.dynamoDbPerWriteUnitUsd + usage.tableReads * prices.dynamoDbPerReadUnitUsd;
  const otherUsd =
    usage.taskInvocations === 0
      ? 0
      : OTHER_CALLS.apiRequests * prices.apiGatewayPerRequestUsd +
        OTHER_CALLS.events * prices.eventBridgePerEventUsd +
        OTHER_CALLS.secretReads * prices.secretsManagerPerCallUsd +
        usage.archiveFiles * prices.s3PerPutUsd;
  return {
    stepFunctionsUsd,
    lambdaUsd,
    dynamoDbUsd,
    otherUsd,
    totalUsd: stepFunctionsUsd + lambdaUsd + dynamoDbUsd + otherUsd,
    archivePerMonthUsd: (usage.archiveBytes / BYTES_PER_GB) * prices.s3PerGbMonthUsd,
    pricedFor: { region: prices.region, asOf: prices.asOf },
  };
}

/** The sum of several estimates made at the same prices. */
export function addCosts(a: ExportCost, b: ExportCost): ExportCost {
  return {
    stepFunctionsUsd: a.stepFunctionsUsd + b.stepFunctionsUsd,
    lambdaUsd: a.lambdaUsd + b.lambdaUsd,
    dynamoDbUsd: a.dynamoDbUsd + b.dynamoDbUsd,
    otherUsd: a.otherUsd + b.otherUsd,
    totalUsd: a.totalUsd + b.totalUsd,
    archivePerMonthUsd: a.archivePerMonthUsd + b.archivePerMonthUsd,
    pricedFor: a.pricedFor,
  };
}
