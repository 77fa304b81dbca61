import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HandlerNames } from '../../../lib/http/routeTable';
import { removeTestAssemblies, type SynthesizedTestStack, synthesizeTestStack } from './synthesizeTestStack';
import { functionOf, resourcesGranting, resourcesOfType, statementsOfFunction } from './templateQueries';

afterAll(() => {
  removeTestAssemblies();
});

const HOUR = 3600;
const SYNTH_TIMEOUT_MS = 120_000;

/** Two scheduled spots (one with its own target), one spot without schedules, a threshold of 2 stale spots. */
const FLEET_CONFIG = {
  coverage: { freshnessAlarmStaleSpots: 2 },
  spots: [
    { spotId: 'sp_hourly', schedules: [{ expression: 'rate(1 hour)', window: 'PT1H', lag: 'PT30M' }] },
    {
      spotId: 'sp_daily',
      freshnessTargetSeconds: 30 * HOUR,
      schedules: [{ expression: 'cron(0 2 * * ? *)', window: 'P1D' }],
    },
    { spotId: 'sp_adhoc' },
  ],
};

function propertiesOf(stack: SynthesizedTestStack, type: string): Record<string, unknown>[] {
  return resourcesOfType(stack.template, type).map(([, resource]) => resource.Properties);
}

describe('the freshness alarm', () => {
  let stack: SynthesizedTestStack;

  beforeAll(() => {
    stack = synthesizeTestStack(FLEET_CONFIG);
  }, SYNTH_TIMEOUT_MS);

  it('goes off at the configured number of stale spots, from the count the reconciler writes', () => {
    // Act
    const alarm = propertiesOf(stack, 'AWS::CloudWatch::Alarm').find(
      (candidate) => candidate.MetricName === 'StaleSpots',
    );
    const filters = propertiesOf(stack, 'AWS::Logs::MetricFilter').filter((filter) =>
      JSON.stringify(filter.MetricTransformations).includes('StaleSpots'),
    );

    // Assess
    expect(alarm).toMatchObject({
      Threshold: 2,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      Statistic: 'Maximum',
      TreatMissingData: 'notBreaching',
    });
    expect(filters).toHaveLength(1);
    expect(filters[0]?.FilterPattern).toBe('{ $.StaleSpots >= 0 }');
    const [, reconciler] = functionOf(stack.template, HandlerNames.RECONCILE);
    expect(filters[0]?.LogGroupName).toEqual({
      Ref: (reconciler.Properties.LoggingConfig as { LogGroup: { Ref: string } }).LogGroup.Ref,
    });
  });

  it("keeps each spot's hours behind as a metric by spot", () => {
    // Act
    const filter = propertiesOf(stack, 'AWS::Logs::MetricFilter').find((candidate) =>
      JSON.stringify(candidate.MetricTransformations).includes('HoursBehind'),
    );

    // Assess
    expect(filter?.MetricTransformations).toEqual([
      expect.objectContaining({
        MetricName: 'HoursBehind',
        MetricValue: '$.HoursBehind',
        Dimensions: [{ Key: 'SpotId', Value: '$.SpotId' }],
      }),
    ]);
  });

  it('measures each spot against its target: its own, else twice its schedule period plus its lag, none without schedules', () => {
    // Act
    const [, reconciler] = functionOf(stack.template, HandlerNames.RECONCILE);
    const variables = (reconciler.Properties.Environment as { Variables: Record<string, string> }).Variables;

    // Assess
    expect(JSON.parse(variables.FLEET_FRESHNESS_TARGETS as string)).toEqual({
      sp_hourly: 2 * HOUR + HOUR / 2,
      sp_daily: 30 * HOUR,
      sp_adhoc: null,
    });
  });

  it('lets the reconciler keep its marks in the table and announce on the bus, which is all it publishes (metrics go through its log)', () => {
    // Act
    const statements = statementsOfFunction(stack.template, HandlerNames.RECONCILE);

    // Assess
    expect(resourcesGranting(statements, 'dynamodb:GetItem')).not.toEqual([]);
    expect(resourcesGranting(statements, 'dynamodb:PutItem')).not.toEqual([]);
    expect(resourcesGranting(statements, 'events:PutEvents')).not.toEqual([]);
    expect(resourcesGranting(statements, 'cloudwatch:PutMetricData')).toEqual([]);
  });
});
