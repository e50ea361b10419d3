import { describe, expect, it } from 'vitest';
import { readAllDocs, readDoc } from '../support/read-docs.js';

describe('the docs: commands a reader copies', async () => {
  const readme = await readDoc('README.md');
  // Fences are paired within a page: a page is never read across into the next one.
  const blocks = (await readAllDocs()).flatMap((page) =>
    [...page.text.matchAll(/```\w*\n([\s\S]*?)```/g)].map((m) => m[1] as string),
  );

  it('never runs a bare `npx conformance`, which would fetch the registry package of that name', () => {
    const commands = blocks.flatMap((b) => b.split('\n')).filter((line) => /\bnpx\b.*\bconformance\b/.test(line));
    expect(commands.length).toBeGreaterThan(0);
    for (const line of commands) expect(line).toMatch(/npx --no-install conformance/);
  });

  it('gates the CI example on a successful deployment, with the permissions the JUnit action needs', () => {
    const workflow = blocks.find((b) => b.includes('.github/workflows/conformance.yml')) as string;
    expect(workflow).toContain("github.event.deployment_status.state == 'success'");
    expect(workflow).toMatch(/permissions:\n\s+contents: read.*\n\s+checks: write/);
    expect(workflow).toContain('mikepenz/action-junit-report');
  });

  it('says that npm start keeps running and the rest goes in a second terminal', () => {
    const setUp = readme.slice(readme.indexOf('## Set-up'), readme.indexOf('\n## ', readme.indexOf('## Set-up') + 1));
    expect(setUp).toMatch(/`npm start` keeps running/);
    expect(setUp).toMatch(/second terminal/);
  });
});
