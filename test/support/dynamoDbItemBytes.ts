import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';

/**
 * An item's size as DynamoDB counts it against the 400 KB limit: every attribute's name (UTF-8)
 * plus its value. Strings count their UTF-8 bytes, binaries their bytes, numbers about one byte
 * per two significant digits plus one, booleans and nulls one; a list or map 3 bytes plus 1 per
 * element (plus each key's name in a map).
 */
export function dynamoDbItemBytes(item: Record<string, unknown>): number {
  const wire = marshall(item, { removeUndefinedValues: true, convertClassInstanceToMap: true });
  return Object.entries(wire).reduce((bytes, [name, value]) => bytes + utf8(name) + valueBytes(value), 0);
}

function valueBytes(value: AttributeValue): number {
  if (value.S !== undefined) return utf8(value.S);
  if (value.N !== undefined) return numberBytes(value.N);
  if (value.B !== undefined) return value.B.byteLength;
  if (value.BOOL !== undefined || value.NULL !== undefined) return 1;
  if (value.L !== undefined) return value.L.reduce((bytes, element) => bytes + 1 + valueBytes(element), 3);
  if (value.M !== undefined) {
    return Object.entries(value.M).reduce(
      (bytes, [name, element]) => bytes + 1 + utf8(name) + valueBytes(element),
      3,
    );
  }
  if (value.SS !== undefined) return value.SS.reduce((bytes, element) => bytes + utf8(element), 0);
  if (value.NS !== undefined) return value.NS.reduce((bytes, element) => bytes + numberBytes(element), 0);
  if (value.BS !== undefined) return value.BS.reduce((bytes, element) => bytes + element.byteLength, 0);
  throw new TypeError(`unknown attribute value ${JSON.stringify(value)}`);
}

function numberBytes(number: string): number {
  const digits = number.replace(/^[-+]/, '').replace('.', '').replace(/^0+/, '').replace(/0+$/, '');
  return Math.ceil(Math.max(digits.length, 1) / 2) + 1;
}

function utf8(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}
