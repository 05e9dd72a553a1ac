import { describe, expect, it } from 'vitest';
import { isLocalName, isPrivateAddress } from './private-address.ts';

describe('private addresses', () => {
  it('loopback, private, link-local, CGNAT, multicast and reserved IPv4 ranges, at their edges', () => {
    for (const ip of ['127.0.0.1', '127.255.255.254', '10.0.0.1', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '100.127.255.255', '0.0.0.0', '224.0.0.1', '255.255.255.255', '198.18.0.1']) {
      expect(isPrivateAddress(ip), ip).toBe(true);
    }
    for (const ip of ['8.8.8.8', '172.15.255.255', '172.32.0.1', '100.63.255.255', '100.128.0.1', '192.169.0.1', '1.1.1.1', '223.255.255.255']) {
      expect(isPrivateAddress(ip), ip).toBe(false);
    }
  });

  it('IPv6 loopback, unspecified, unique-local, link-local, multicast, and IPv4-mapped by the address they carry', () => {
    for (const ip of ['::1', '::', 'fc00::1', 'fd12:3456::1', 'fe80::1%eth0', 'ff02::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', '0:0:0:0:0:0:0:1']) {
      expect(isPrivateAddress(ip), ip).toBe(true);
    }
    for (const ip of ['2001:4860:4860::8888', '2606:4700::1111', '::ffff:8.8.8.8']) {
      expect(isPrivateAddress(ip), ip).toBe(false);
    }
  });

  it('text that is not an address counts as private, and localhost names are this machine', () => {
    expect(isPrivateAddress('300.1.1.1')).toBe(true);
    expect(isPrivateAddress('1::2::3')).toBe(true);
    expect(isLocalName('LOCALHOST.')).toBe(true);
    expect(isLocalName('api.localhost')).toBe(true);
    expect(isLocalName('localhost.example.com')).toBe(false);
  });
});
