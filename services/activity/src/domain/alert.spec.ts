import { describe, expect, it } from 'vitest';
import { toAlertPage, validateAlert, type AlertFields } from './alert.js';

const fields: AlertFields = {
  key: 'quota_warning:1:1',
  kind: 'quota_warning',
  priority: 'normal',
  title: 'Quota at 80%',
  message: 'You have used 80% of your tracking quota.',
  link: '/integrations/parcel-tracking',
  properties_json: '{"integration_instance_id":1}',
  recipient_user_id: 0,
};

describe('validateAlert', () => {
  it('accepts a well-formed alert, defaulting priority and emptying the link to null', () => {
    expect(validateAlert({ ...fields, priority: '', link: '' })).toEqual({
      alert: {
        key: 'quota_warning:1:1',
        kind: 'quota_warning',
        priority: 'normal',
        title: 'Quota at 80%',
        message: 'You have used 80% of your tracking quota.',
        link: null,
        properties: { integration_instance_id: 1 },
        recipient_user_id: null,
      },
    });
  });

  it('addresses an alert to one user, or to the tenant inbox when the recipient is 0', () => {
    expect(validateAlert({ ...fields, recipient_user_id: 7 })).toMatchObject({
      alert: { recipient_user_id: 7 },
    });
    expect(validateAlert(fields)).toMatchObject({ alert: { recipient_user_id: null } });
  });

  it('names every field at fault', () => {
    const result = validateAlert({
      key: ' ',
      kind: 'bogus',
      priority: 'urgent',
      title: '',
      message: 'x'.repeat(2001),
      link: '//evil.example/phish',
      properties_json: '[1]',
      recipient_user_id: -2,
    });
    expect('violations' in result && result.violations.map((v) => v.field)).toEqual([
      'key',
      'kind',
      'priority',
      'title',
      'message',
      'link',
      'recipient_user_id',
      'properties_json',
    ]);
  });

  it('refuses absolute links', () => {
    expect(validateAlert({ ...fields, link: 'https://evil.example' })).toHaveProperty('violations');
  });
});

describe('toAlertPage', () => {
  it('defaults and bounds', () => {
    expect(toAlertPage(undefined)).toEqual({ page: 1, perPage: 10 });
    expect(toAlertPage({ page: 3, per_page: 100 })).toEqual({ page: 3, perPage: 100 });
    expect(toAlertPage({ page: -1, per_page: 101 })).toEqual({
      violations: [
        { field: 'page', description: 'The page must be at least 1.' },
        { field: 'per_page', description: 'The per_page must be between 1 and 100.' },
      ],
    });
  });
});
