import { describe, expect, it } from 'vitest';
import { orderFormData } from './orders-api.ts';

describe('order form data', () => {
  it('sends filled fields trimmed, leaves blank ones out and puts every document under files', () => {
    const files = [new File(['%PDF-1.4'], 'a.pdf'), new File(['x'], 'b.png')];
    const form = orderFormData(
      { patient_name: ' Asha Menon ', patient_id: '  ', study: undefined, modality: 'CT' },
      files,
    );
    expect(form.get('patient_name')).toBe('Asha Menon');
    expect(form.has('patient_id')).toBe(false);
    expect(form.has('study')).toBe(false);
    expect(form.get('modality')).toBe('CT');
    expect(form.getAll('files').map((file) => (file as File).name)).toEqual(['a.pdf', 'b.png']);
  });
});
