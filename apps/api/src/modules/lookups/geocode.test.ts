// GET geocode/?q= against a fake Nominatim server on 127.0.0.1, and against an address nobody listens on.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import type { TGeocodeResult } from '@sc/shared/geocode';
import { setupTestApp } from '../../test/app.ts';
import { auth, createUser, signIn } from '../../test/factories.ts';
import { createNominatimGeocoder, GeocoderUnavailableError, toPlace } from '../../services/geocoder.ts';

const requests: { url: string; userAgent: string | undefined }[] = [];
let mode: 'ok' | 'error' | 'slow' = 'ok';

const NOMINATIM_ANSWER = [
  {
    lat: '18.5204',
    lon: '73.8567',
    name: 'City Clinic',
    display_name: 'City Clinic, 12, MG Road, Camp, Pune, Maharashtra, 411001, India',
    address: {
      amenity: 'City Clinic',
      house_number: '12',
      road: 'MG Road',
      suburb: 'Camp',
      city: 'Pune',
      state: 'Maharashtra',
      postcode: '411001',
      country: 'India',
      country_code: 'in',
    },
  },
];

const upstream = http.createServer((req, res) => {
  requests.push({ url: req.url ?? '', userAgent: req.headers['user-agent'] });
  if (mode === 'error') {
    res.writeHead(502).end('bad gateway');
    return;
  }
  if (mode === 'slow') return; // never answers: the 5 s timeout fires (tested with a short timeout below)
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(NOMINATIM_ANSWER));
});
await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
const port = (upstream.address() as AddressInfo).port;
afterAll(() => {
  upstream.closeAllConnections();
  upstream.close();
});

const t = await setupTestApp({ GEOCODER_URL: `http://127.0.0.1:${port}` });
// Port 9 (discard) on loopback: nothing listens, the connection is refused at once.
const unreachable = await setupTestApp({ GEOCODER_URL: 'http://127.0.0.1:9' });
const token = await signIn(t, await createUser(t, { userType: 'ORG_ADMIN' }));

describe('GET geocode/', () => {
  it('refuses an anonymous caller with 401', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/geocode/?q=pune' });
    expect(res.statusCode).toBe(401);
  });

  it('asks for q of 1 to 200 characters', async () => {
    const empty = await t.app.inject({ method: 'GET', url: '/api/v1/geocode/?q=', headers: auth(token) });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toHaveProperty('q');
    const long = await t.app.inject({
      method: 'GET',
      url: `/api/v1/geocode/?q=${'a'.repeat(201)}`,
      headers: auth(token),
    });
    expect(long.statusCode).toBe(400);
  });

  it('answers places mapped to the organization form fields', async () => {
    mode = 'ok';
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/geocode/?q=City%20Clinic%20Pune', headers: auth(token) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<TGeocodeResult>().results).toEqual([
      {
        label: 'City Clinic, 12, MG Road, Camp, Pune, Maharashtra, 411001, India',
        name: 'City Clinic',
        address_1: '12 MG Road',
        address_2: 'Camp',
        address_3: 'Pune',
        state: 'Maharashtra',
        country: 'India',
        country_code: 'IN',
        zipcode: '411001',
        latitude: 18.5204,
        longitude: 73.8567,
      },
    ]);
    const last = requests.at(-1);
    expect(last?.url).toBe('/search?format=jsonv2&addressdetails=1&limit=5&q=City%20Clinic%20Pune');
    expect(last?.userAgent).toMatch(/ScreeningConsole/);
  });

  it('answers 503, not 500, when the geocoder fails', async () => {
    mode = 'error';
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/geocode/?q=pune', headers: auth(token) });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ detail: 'Place search is unavailable.' });
    mode = 'ok';
  });
});

describe('GET geocode/ with an unreachable geocoder', () => {
  it('answers 503 when nothing listens at GEOCODER_URL', async () => {
    const token2 = await signIn(unreachable, await createUser(unreachable, { userType: 'ADMIN' }));
    const res = await unreachable.app.inject({ method: 'GET', url: '/api/v1/geocode/?q=pune', headers: auth(token2) });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ detail: 'Place search is unavailable.' });
  });
});

describe('createNominatimGeocoder', () => {
  it('gives up with GeocoderUnavailableError when the server does not answer in time', async () => {
    mode = 'slow';
    const geocoder = createNominatimGeocoder({ GEOCODER_URL: `http://127.0.0.1:${port}/` }, { timeoutMs: 100 });
    await expect(geocoder.search('pune')).rejects.toBeInstanceOf(GeocoderUnavailableError);
    mode = 'ok';
  });
});

describe('toPlace', () => {
  it('falls back to town, the first label part and empty strings', () => {
    expect(
      toPlace({ display_name: 'Kisumu, Kenya', lat: 'x', address: { town: 'Kisumu', country: 'Kenya', country_code: 'ke' } }),
    ).toMatchObject({ name: 'Kisumu', address_1: 'Kisumu', address_3: 'Kisumu', country_code: 'KE', zipcode: '', latitude: null });
  });
});
