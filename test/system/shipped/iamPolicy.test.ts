import { describe, expect, it } from 'vitest';
import { accessKeyOf, decodeBody } from './awsStandIns';
import {
  type Deployment,
  grantCovers,
  grantsOf,
  iamPatternMatches,
  resolveValue,
  UnresolvableTemplateValueError,
} from './iamPolicy';

const deployment: Deployment = {
  partition: 'aws',
  region: 'eu-west-1',
  accountId: '123456789012',
  stackId:
    'arn:aws:cloudformation:eu-west-1:123456789012:stack/OpenWebExports/5c8e1f0a-3b2d-4e6f-9a1b-0c2d3e4f5a6b',
  ref: (logicalId) => `${logicalId}-name`,
  getAtt: (logicalId, attribute) => `${logicalId}-${attribute}`,
};

describe('resolving template values', () => {
  it('resolves Ref, pseudo parameters, Fn::GetAtt and Fn::Join', () => {
    const value = {
      'Fn::Join': [
        '',
        [
          'arn:',
          { Ref: 'AWS::Partition' },
          ':states:',
          { Ref: 'AWS::Region' },
          ':',
          { Ref: 'AWS::AccountId' },
        ],
      ],
    };
    expect(resolveValue(value, deployment)).toBe('arn:aws:states:eu-west-1:123456789012');
    expect(resolveValue({ Ref: 'Table' }, deployment)).toBe('Table-name');
    expect(resolveValue({ 'Fn::GetAtt': ['Table', 'Arn'] }, deployment)).toBe('Table-Arn');
    expect(resolveValue({ 'Fn::GetAtt': 'Bucket.Arn' }, deployment)).toBe('Bucket-Arn');
  });

  it('resolves Fn::Sub with and without its own variables, leaving literal placeholders alone', () => {
    // Fn::Sub's placeholders, written as CloudFormation writes them (not JavaScript templates).
    const [partition, bucket, key, tableArn, literal] = [
      'AWS::Partition',
      'Bucket',
      'Key',
      'Table.Arn',
      '!Literal',
    ].map((name) => `$\{${name}}`);
    expect(resolveValue({ 'Fn::Sub': `arn:${partition}:s3:::${bucket}/*` }, deployment)).toBe(
      'arn:aws:s3:::Bucket-name/*',
    );
    expect(resolveValue({ 'Fn::Sub': [`${key}/${tableArn}`, { Key: { Ref: 'Other' } }] }, deployment)).toBe(
      'Other-name/Table-Arn',
    );
    expect(resolveValue({ 'Fn::Sub': literal }, deployment)).toBe(literal);
  });

  it('resolves Fn::Select over a list or an Fn::Split', () => {
    expect(resolveValue({ 'Fn::Select': [1, ['a', { Ref: 'B' }]] }, deployment)).toBe('B-name');
    const split = { 'Fn::Split': ['-', { 'Fn::GetAtt': ['Key', 'Arn'] }] };
    expect(resolveValue({ 'Fn::Select': [1, split] }, deployment)).toBe('Arn');
  });

  it('refuses what it does not know', () => {
    expect(() => resolveValue({ 'Fn::ImportValue': 'x' }, deployment)).toThrow(
      UnresolvableTemplateValueError,
    );
    expect(() => resolveValue(42, deployment)).toThrow(UnresolvableTemplateValueError);
    expect(() => resolveValue({ 'Fn::Select': [3, ['a']] }, deployment)).toThrow(
      UnresolvableTemplateValueError,
    );
  });
});

describe('IAM matching', () => {
  it('matches * and ? and nothing else as wildcards', () => {
    expect(iamPatternMatches('arn:aws:states:*:execution:M:*', 'arn:aws:states:r:execution:M:ex_1')).toBe(
      true,
    );
    expect(iamPatternMatches('arn:aws:s3:::b/exports/*', 'arn:aws:s3:::b/other/x')).toBe(false);
    expect(iamPatternMatches('arn:aws:s3:::b/a?c', 'arn:aws:s3:::b/abc')).toBe(true);
    expect(iamPatternMatches('table/t.x', 'table/tyx')).toBe(false);
    expect(iamPatternMatches('table/t', 'table/t/index/i')).toBe(false);
  });

  it('compares actions without case and resources with it', () => {
    const grant = { action: 'dynamodb:GetItem', resource: 'arn:aws:dynamodb:r:a:table/T' };
    expect(grantCovers(grant, 'DynamoDB:getitem', 'arn:aws:dynamodb:r:a:table/T')).toBe(true);
    expect(grantCovers(grant, 'dynamodb:GetItem', 'arn:aws:dynamodb:r:a:table/t')).toBe(false);
    expect(grantCovers({ action: 'states:*', resource: '*' }, 'states:StopExecution', 'anything')).toBe(true);
  });

  it('lists each action on each resource of a statement', () => {
    const statements = [
      { Effect: 'Allow', Action: ['a:One', 'a:Two'], Resource: [{ Ref: 'X' }, 'literal'] },
      { Effect: 'Allow', Action: 'b:Three', Resource: '*' },
    ];
    expect(grantsOf(statements, deployment)).toEqual([
      { action: 'a:One', resource: 'X-name' },
      { action: 'a:One', resource: 'literal' },
      { action: 'a:Two', resource: 'X-name' },
      { action: 'a:Two', resource: 'literal' },
      { action: 'b:Three', resource: '*' },
    ]);
    expect(() => grantsOf([{ Effect: 'Deny', Action: 'a:One', Resource: '*' }], deployment)).toThrow(/Allow/);
  });
});

describe('the stand-ins reading requests', () => {
  it('tell the signer from the Authorization header or a presigned URL', () => {
    const signed = {
      authorization:
        'AWS4-HMAC-SHA256 Credential=ASIA-start/20261123/eu-west-1/sfn/aws4_request, SignedHeaders=host, Signature=x',
    };
    expect(accessKeyOf(signed, new URL('http://h/'))).toBe('ASIA-start');
    const presigned = new URL(
      'http://h/b/k?X-Amz-Credential=ASIA-files%2F20261123%2Feu-west-1%2Fs3%2Faws4_request',
    );
    expect(accessKeyOf({}, presigned)).toBe('ASIA-files');
    expect(accessKeyOf({}, new URL('http://h/'))).toBe('unsigned');
  });

  it('decode an aws-chunked body with a trailing checksum', () => {
    const body = Buffer.from(
      '5;chunk-signature=a\r\nhello\r\n3\r\n wo\r\n0\r\nx-amz-checksum-crc32:AAAA\r\n\r\n',
    );
    expect(decodeBody({ 'content-encoding': 'aws-chunked' }, body).toString()).toBe('hello wo');
    expect(decodeBody({}, Buffer.from('plain')).toString()).toBe('plain');
  });
});
