import { describe, expect, it } from 'vitest';
import { followUpCommandFor } from '../../../cli/cliOptions';

describe('followUpCommandFor', () => {
  it('keeps the options that reach the same API the same way: --api, --sigv4, --region', () => {
    // Prepare
    const followUp = followUpCommandFor({
      api: 'https://exports.example.com',
      sigv4: true,
      region: 'eu-west-1',
      spot: 'sp_demo',
      wait: true,
    });

    // Act
    const line = followUp('watch ex_1 --spot sp_demo');

    // Assess
    expect(line).toBe(
      'npx openweb-exports watch ex_1 --spot sp_demo --api https://exports.example.com --sigv4 --region eu-west-1',
    );
  });

  it('adds nothing when the API came from the environment or the default', () => {
    // Act
    const line = followUpCommandFor({ spot: 'sp_demo' })('abort ex_1 --spot sp_demo');

    // Assess
    expect(line).toBe('npx openweb-exports abort ex_1 --spot sp_demo');
  });
});
