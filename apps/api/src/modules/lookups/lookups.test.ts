// GET country/ and timezone/: public reference lists built from packages.
import { describe, expect, it } from 'vitest';
import type { TCountry } from '@sc/shared/list';
import { DEFAULT_TILE_ATTRIBUTION, DEFAULT_TILE_URL } from '@sc/shared/map-tiles';
import { setupTestApp } from '../../test/app.ts';

const t = await setupTestApp();

async function countries(query = ''): Promise<TCountry[]> {
  const res = await t.app.inject({ method: 'GET', url: `/api/v1/country/${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TCountry[]>();
}

describe('GET country/', () => {
  it('answers every country without a token, sorted by name', async () => {
    const all = await countries();
    expect(all.length).toBeGreaterThan(240);
    const byName = [...all].sort((a, b) => a.name.localeCompare(b.name, 'en'));
    expect(all.map((c) => c.code)).toEqual(byName.map((c) => c.code));
    expect(new Set(all.map((c) => c.code)).size).toBe(all.length);
  });

  it('gives name, dial code, ISO code and currency code', async () => {
    const all = await countries();
    expect(all.find((c) => c.code === 'IN')).toEqual({
      name: 'India',
      dial_code: '+91',
      code: 'IN',
      currency_code: 'INR',
    });
    expect(all.find((c) => c.code === 'US')).toMatchObject({ dial_code: '+1', currency_code: 'USD' });
    expect(all.find((c) => c.code === 'XK')).toMatchObject({ dial_code: '+383' });
    expect(all.every((c) => /^\+\d{1,4}$/.test(c.dial_code))).toBe(true);
  });

  it('searches the name case-insensitively', async () => {
    const found = await countries('?search=inDI');
    expect(found.map((c) => c.code)).toContain('IN');
    expect(
      found.every((c) => c.name.toLowerCase().includes('indi') || c.code.toLowerCase().includes('indi')),
    ).toBe(true);
  });

  it('searches the ISO code and the dial code with or without +', async () => {
    expect((await countries('?search=ke')).map((c) => c.code)).toContain('KE');
    expect((await countries('?search=%2B254')).map((c) => c.code)).toEqual(['KE']);
    expect((await countries('?search=254')).map((c) => c.code)).toEqual(['KE']);
  });

  it('answers an empty list when nothing matches', async () => {
    expect(await countries('?search=zzzz')).toEqual([]);
  });
});

describe('GET timezone/', () => {
  it('answers the canonical IANA names without a token, sorted', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/timezone/' });
    expect(res.statusCode).toBe(200);
    const zones = res.json<string[]>();
    expect(zones).toContain('Asia/Kolkata');
    expect(zones).toContain('Europe/Paris');
    expect(zones).not.toContain('Asia/Calcutta');
    expect([...zones].sort()).toEqual(zones);
    expect(zones.length).toBeGreaterThan(300);
  });
});

describe('GET map/tiles/', () => {
  it('tells the console, without a token, the default tile layer whose host the CSP allows', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/map/tiles/' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ url: DEFAULT_TILE_URL, attribution: DEFAULT_TILE_ATTRIBUTION });
    expect(res.headers['content-security-policy']).toContain('https://tile.openstreetmap.org');
  });

  it('answers the configured TILE_URL and TILE_ATTRIBUTION, so a console never asks a host the CSP refuses', async () => {
    const other = await setupTestApp({ TILE_URL: 'https://tiles.example.org/{z}/{x}/{y}.png', TILE_ATTRIBUTION: '© Example' });
    const res = await other.app.inject({ method: 'GET', url: '/api/v1/map/tiles/' });
    expect(res.json()).toEqual({ url: 'https://tiles.example.org/{z}/{x}/{y}.png', attribution: '© Example' });
    expect(res.headers['content-security-policy']).toContain('https://tiles.example.org');
    expect(res.headers['content-security-policy']).not.toContain('tile.openstreetmap.org');
  });

  it('answers an empty TILE_URL as such (the maps draw their bundled outlines alone) and lets the page load images from no outside host', async () => {
    const none = await setupTestApp({ TILE_URL: '' });
    const res = await none.app.inject({ method: 'GET', url: '/api/v1/map/tiles/' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ url: '' });
    expect(res.headers['content-security-policy']).toMatch(/img-src 'self' data: blob:;/);
  });
});
