// "Did you mean" for names typed wrong: the rule commander applies to flags.
import { describe, expect, it } from 'vitest';
import { closest, didYouMean, editDistance } from '../../src/cli/similar.js';
import { runCli } from './helpers.js';

describe('closest names', () => {
  it('counts a swap of neighbours as one edit, and offers only the closest, only when close', () => {
    expect(editDistance('nmae', 'name')).toBe(1);
    expect(editDistance('colour', 'color')).toBe(1);
    expect(closest('nmae', ['id', 'name', 'number', 'email'])).toEqual(['name']);
    expect(closest('zzz', ['id', 'name', 'number'])).toEqual([]);
    expect(closest('nme', ['name', 'nome'])).toEqual(['name', 'nome']);
    expect(didYouMean('nme', ['name', 'nome'])).toBe(' (did you mean one of "name", "nome"?)');
    expect(didYouMean('zzz', ['name'])).toBe('');
  });
});

describe('--json', () => {
  it('a misspelt field is exit 2 with the field it may mean, before anything is sent', async () => {
    const env = {
      WSM_BASE_URL: 'http://api.test/api/v3',
      WSM_TOKEN: 'tok_1234567890',
      WSM_WORKSPACE: '2f1c9a52-8d1e-4c3b-9f10-6a7b8c9d0e1f',
    };
    const { code, stdout, stderr } = await runCli(['labels', 'list', '--json', 'id,nmae,colr'], { env });
    expect({ code, stdout }).toEqual({ code: 2, stdout: '' });
    expect(stderr).toBe(
      'error: unknown fields "nmae" (did you mean "name"?), "colr" (did you mean "color"?) for --json; available: id, workspace_id, name, color, created_at, updated_at\n',
    );
  });
});
