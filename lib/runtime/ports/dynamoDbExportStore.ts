import { DynamoDbExportStore } from '../../store/DynamoDbExportStore';
import type { PortFactory } from '../buildExportDependencies';
import { requiredResource } from './requiredResource';

/** The exports table. */
export const dynamoDbExportStore: PortFactory<'store'> = ({ config, documentClient, now }) =>
  new DynamoDbExportStore({
    client: documentClient(),
    tableName: requiredResource(config.resources.tableName, 'TABLE_NAME'),
    now,
  });
