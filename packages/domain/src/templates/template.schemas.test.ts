import { describe, expect, it } from 'vitest';
import { ZSaveTemplateBody, ZTemplateListQuery } from './template.schemas.ts';

describe('template schemas', () => {
  it('lists for the templates screen, 10 a page, by default; repeated keys become arrays', () => {
    expect(ZTemplateListQuery.parse({})).toMatchObject({
      purpose: 'manage',
      limit: 10,
      offset: 0,
      scopes: [],
      by_user_ids: [],
    });
    const id = '00000000-0000-4000-8000-000000000001';
    expect(
      ZTemplateListQuery.parse({ scopes: 'DEFAULT', by_user_ids: [id], purpose: 'insert' }),
    ).toMatchObject({
      scopes: ['DEFAULT'],
      by_user_ids: [id],
      purpose: 'insert',
    });
    expect(ZTemplateListQuery.safeParse({ purpose: 'all' }).success).toBe(false);
    expect(ZTemplateListQuery.safeParse({ modality: 'PET' }).success).toBe(false);
  });

  it('leaves scope and status out unless given, so an update keeps them; DEFAULT cannot be saved', () => {
    const body = ZSaveTemplateBody.parse({ name: ' Chest ', content: '<p>x</p>' });
    expect(body).toEqual({ name: 'Chest', content: '<p>x</p>' });
    expect(ZSaveTemplateBody.safeParse({ name: 'x', content: '', scope: 'DEFAULT' }).success).toBe(false);
    expect(ZSaveTemplateBody.safeParse({ name: '  ', content: '' }).success).toBe(false);
    expect(ZSaveTemplateBody.parse({ name: 'x', content: '', modality: null }).modality).toBeNull();
  });
});
