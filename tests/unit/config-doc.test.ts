// docs/configuration.md and .env.example are rendered from server/config.ts's EnvSchema by
// scripts/config-doc.ts (`npm run docs:config`); these tests fail when either has drifted from the schema.
import { readFileSync } from 'node:fs';
import { EnvSchema } from '../../server/config';
import {
  CONFIGURATION_DOC,
  COMMON,
  ENV_EXAMPLE,
  renderConfigurationDoc,
  renderEnvExample,
  variables,
} from '../../scripts/config-doc';

const RERUN = 'out of date: run `npm run docs:config` and commit the result';

describe('configuration docs generated from the config schema', () => {
  it('docs/configuration.md is what the script renders from the schema', async () => {
    expect(readFileSync(CONFIGURATION_DOC, 'utf8'), `docs/configuration.md is ${RERUN}`).toBe(
      await renderConfigurationDoc(),
    );
  });

  it('.env.example is what the script renders from the schema', () => {
    expect(readFileSync(ENV_EXAMPLE, 'utf8'), `.env.example is ${RERUN}`).toBe(renderEnvExample());
  });

  it('every variable of the schema is documented with a description, its type and its default', async () => {
    const doc = await renderConfigurationDoc();
    const names = Object.keys(EnvSchema.shape);
    expect(names.length).toBeGreaterThan(60);
    for (const [name, field] of variables()) {
      expect(field.description, name).toMatch(/\w{3}/);
      expect(doc, name).toMatch(new RegExp(`^- \\*\\*\`${name}\`\\*\\*: .+; default .+\\. \\S`, 'm'));
    }
    expect(variables().map(([name]) => name)).toEqual(names);
  });

  it('every variable in .env.example exists in the schema', () => {
    const listed = [...readFileSync(ENV_EXAMPLE, 'utf8').matchAll(/^#? ?([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]);
    expect(listed).toEqual(COMMON);
    for (const name of listed) expect(Object.keys(EnvSchema.shape), name).toContain(name);
  });

  it('a schema default that depends on the machine is documented by its rule, not by this machine’s value', async () => {
    expect(await renderConfigurationDoc()).toContain(
      '**`RENDER_CONCURRENCY`**: integer, 1–16; default twice the CPU cores, 2 to 8.',
    );
  });
});
