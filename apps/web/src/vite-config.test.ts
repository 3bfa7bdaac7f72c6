// The dev server's /api proxy follows the API's PORT (issue 23.27): `PORT=8081 npm run dev:api` and
// `PORT=8081 npm run dev:web` talk to each other, as `npm start` on that port would serve both.
// (jsdom like every web test: the setup file needs a window; the config is plain Node code either way.)
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { UserConfig } from 'vite';

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

async function loadConfig(): Promise<UserConfig> {
  vi.resetModules();
  return (await import('../vite.config.ts')).default as UserConfig;
}

const targetOf = (proxy: unknown) => (proxy as Record<string, { target: string }>)['/api']?.target;

describe('vite.config.ts', () => {
  it('proxies /api to the port in PORT, in dev and preview', async () => {
    vi.stubEnv('PORT', '8108');
    vi.stubEnv('API_PORT', '');
    vi.stubEnv('HOST', '');
    const config = await loadConfig();
    expect(targetOf(config.server?.proxy)).toBe('http://127.0.0.1:8108');
    expect(targetOf(config.preview?.proxy)).toBe('http://127.0.0.1:8108');
    // The console's own port does not move with the API's.
    expect(config.server?.port).toBe(5173);
  });

  it('defaults to the API default 8080, and API_PORT wins over PORT', async () => {
    const { apiProxyTarget } = await import('../vite.config.ts');
    expect(apiProxyTarget({})).toBe('http://127.0.0.1:8080');
    expect(apiProxyTarget({ PORT: '8081', API_PORT: '9000' })).toBe('http://127.0.0.1:9000');
    expect(apiProxyTarget({ PORT: '8081', HOST: '0.0.0.0' })).toBe('http://127.0.0.1:8081');
    expect(apiProxyTarget({ PORT: '8081', HOST: '10.0.0.5' })).toBe('http://10.0.0.5:8081');
    expect(apiProxyTarget({ PORT: '8081', HOST: 'fd00::5' })).toBe('http://[fd00::5]:8081');
  });
});
