import { describe, expect, it } from 'vitest';
import { credentialsNotice } from './credentials-notice.js';

describe('credentialsNotice', () => {
  it('names the file and the token id, never the password or the token secret', () => {
    const secret = 'Abc123secretSECRETsecret0123456789abcdefXYZ';
    const notice = credentialsNotice({
      host: 'dev.inventory.localhost',
      email: 'owner@dev.inventory.localhost',
      token: `42|${secret}`,
      devFilePath: '.data/dev.json',
    });
    expect(notice).toBe(
      'tenant dev.inventory.localhost: owner owner@dev.inventory.localhost; password and all-scopes token (id 42) are in .data/dev.json',
    );
    expect(notice).not.toContain(secret);
    expect(notice).not.toContain('dev-password-change-me');
  });
});
