import { describe, expect, it } from 'vitest';
import {
  administersAnyEducator,
  isEducatorAdmin,
  showContactButton,
  showProfileAccountDropdown,
  showSaveButton,
} from '../../src/domain/roles.ts';

describe('roles (spec 6)', () => {
  it('educator admin of this educator', () => {
    const identity = { authenticated: true, educators: [{ id: 'e1' }] };
    expect(isEducatorAdmin(identity, 'e1')).toBe(true);
    expect(isEducatorAdmin(identity, 'e2')).toBe(false);
    expect(isEducatorAdmin({ authenticated: false, educators: [{ id: 'e1' }] }, 'e1')).toBe(false);
    expect(isEducatorAdmin(null, 'e1')).toBe(false);
  });
  it('any educator', () => {
    expect(administersAnyEducator({ authenticated: true, educators: [{ id: 'x' }] })).toBe(true);
    expect(administersAnyEducator({ authenticated: true, educators: [] })).toBe(false);
  });
});

describe('per-context controls (spec 2.6 / 2.12)', () => {
  it('Contact button: marketplace and can_be_contacted', () => {
    expect(showContactButton('marketplace', { can_be_contacted: true })).toBe(true);
    expect(showContactButton('marketplace', { can_be_contacted: false })).toBe(false);
    expect(showContactButton('minisite', { can_be_contacted: true })).toBe(false);
    expect(showContactButton('embed', { can_be_contacted: true })).toBe(false);
  });
  it('account dropdown in the minisite only; save overlay not in embed', () => {
    expect(showProfileAccountDropdown('minisite')).toBe(true);
    expect(showProfileAccountDropdown('marketplace')).toBe(false);
    expect(showSaveButton('embed')).toBe(false);
    expect(showSaveButton('marketplace')).toBe(true);
    expect(showSaveButton('minisite')).toBe(true);
  });
});
