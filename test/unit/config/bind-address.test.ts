// Where the app listens: the demo on loopback unless told otherwise (its token route must not face a network).
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/env.ts';

const real = {
  SHOPIFY_API_KEY: 'key',
  SHOPIFY_API_SECRET: 'shpss_secret_value',
  SHOPIFY_APP_URL: 'https://facturas.example.com/',
  GATEWAY_BASE_URL: 'https://gateway.example.com/api/v1/GFGatewayEB',
  GATEWAY_AUTH_TOKEN: 'jwt-secret-value',
};

describe('bind address', () => {
  it('the demo listens on 127.0.0.1 by default', () => {
    expect(loadConfig({}).bindAddress).toBe('127.0.0.1');
  });

  it('BIND_ADDRESS overrides the demo default', () => {
    expect(loadConfig({ BIND_ADDRESS: '0.0.0.0' }).bindAddress).toBe('0.0.0.0');
  });

  it('a real configuration listens on every interface unless told otherwise', () => {
    expect(loadConfig(real).bindAddress).toBe('0.0.0.0');
    expect(loadConfig({ ...real, BIND_ADDRESS: '10.0.0.5' }).bindAddress).toBe('10.0.0.5');
  });
});
