import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../../infra/ExportFunction';
import { brokenLinks, headingAnchor, projectDocuments } from '../../support/markdownLinks';

describe('relative links of README.md and docs/', () => {
  let scratch: string | undefined;

  afterEach(() => {
    if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
    scratch = undefined;
  });

  it('gives headings the anchors GitHub gives them', () => {
    // Act
    const anchors = [
      'Checked offline, and what a first deployment must confirm',
      'Asking a question: `openweb-exports query`',
      "The functions' environment",
      '`npm start`',
      'See [the archive](archive.md)',
    ].map(headingAnchor);

    // Assess
    expect(anchors).toEqual([
      'checked-offline-and-what-a-first-deployment-must-confirm',
      'asking-a-question-openweb-exports-query',
      'the-functions-environment',
      'npm-start',
      'see-the-archive',
    ]);
  });

  it('reports a link to a missing file and to a missing heading, and ignores code and URLs', () => {
    // Prepare
    scratch = mkdtempSync(join(tmpdir(), 'markdown-links-'));
    mkdirSync(join(scratch, 'docs'));
    writeFileSync(
      join(scratch, 'README.md'),
      [
        '# Title',
        'See [the page](docs/page.md#second-part), [gone](docs/gone.md), [here](#title),',
        '[nowhere](docs/page.md#third-part) and [the web](https://example.com/x.md).',
        '`[in code](docs/missing.md)`',
        '```md',
        '[in a block](docs/missing.md)',
        '```',
      ].join('\n'),
    );
    writeFileSync(
      join(scratch, 'docs', 'page.md'),
      '# Page\n\n## Second part\n\n[back](../README.md#title)\n',
    );

    // Act
    const broken = brokenLinks(scratch, projectDocuments(scratch));

    // Assess
    expect(broken).toEqual([
      { document: 'README.md', line: 2, target: 'docs/gone.md', problem: 'docs/gone.md does not exist' },
      {
        document: 'README.md',
        line: 3,
        target: 'docs/page.md#third-part',
        problem: 'docs/page.md has no heading whose anchor is #third-part',
      },
    ]);
  });

  it('point at files and headings that exist', () => {
    // Prepare
    const documents = projectDocuments(PROJECT_ROOT);

    // Act
    const broken = brokenLinks(PROJECT_ROOT, documents);

    // Assess
    expect(documents).toContain('docs/archive.md');
    expect(broken).toEqual([]);
  });
});
