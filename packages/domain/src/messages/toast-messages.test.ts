import { describe, expect, it } from 'vitest';
import {
  FALLBACK_ERROR_MESSAGES,
  LOADING_TOAST_MESSAGES,
  SUCCESS_TOAST_MESSAGES,
  errorMessageOr,
} from './toast-messages.ts';

describe('toast messages', () => {
  it('has every fallback of the specification, each starting with "Failed to"', () => {
    const messages = Object.values(FALLBACK_ERROR_MESSAGES);
    expect(messages).toHaveLength(20);
    for (const message of messages) expect(message).toMatch(/^Failed to /);
    expect(messages).toContain('Failed to share report PDF via WhatsApp');
    expect(messages).toContain('Failed to share report PDF via Email');
    expect(messages).toContain('Failed to create/update user');
    expect(messages).toContain('Failed to download DOCX report');
  });

  it('keeps the loading and success texts', () => {
    expect(Object.values(LOADING_TOAST_MESSAGES)).toEqual([
      'Generating PDF report...',
      'Generating DOCX report...',
      'Preparing download...',
    ]);
    expect(Object.values(SUCCESS_TOAST_MESSAGES)).toEqual([
      'PDF downloaded successfully!',
      'DOCX downloaded successfully!',
    ]);
  });

  it('shows the server message when present, else the fallback', () => {
    expect(errorMessageOr('fetchWorklist', 'Facility not found')).toBe('Facility not found');
    expect(errorMessageOr('fetchWorklist')).toBe('Failed to fetch worklist');
    expect(errorMessageOr('createMacro', '')).toBe('Failed to create macro');
    expect(errorMessageOr('createMacro', ' \n')).toBe('Failed to create macro');
    expect(errorMessageOr('resetPassword', null)).toBe('Failed to reset password');
  });
});
