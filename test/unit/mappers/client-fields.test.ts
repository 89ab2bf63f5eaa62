// The correction form's values (mappers/invoice/client-fields.ts): the stored correction first, then the client block as
// mapped, then what the order says, checks left out (the form is where a wrong check digit is fixed).
import { describe, expect, it } from 'vitest';
import { clientFields } from '../../../mappers/invoice/client-fields.ts';
import { defaultMappingSettings } from '../../../mappers/invoice/mapping-settings.ts';
import { parseShopifyOrder } from '../../../mappers/shopify/shopify-order.ts';
import { TAXPAYER_CLIENT_BLOCK, TAXPAYER_CORRECTION } from '../../support/client-fixtures.ts';
import { makePaidOrder } from '../../support/order-factory.ts';

function orderOf(patch: Record<string, unknown>) {
  const parsed = parseShopifyOrder({ ...makePaidOrder({ id: 6_620_000_000_001 }), ...patch });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return { order: parsed.order, settings: defaultMappingSettings };
}

const none = { correction: undefined, document: null, order: undefined };

describe('the correction form’s values', () => {
  it('start from the stored correction, whatever the order says', () => {
    const order = orderOf({ note_attributes: [{ name: 'ruc', value: '8-442-445 DV 08' }] });
    expect(clientFields({ ...none, order, correction: { type: 'final_consumer', name: 'Ana Pérez' } })).toEqual({
      type: 'final_consumer',
      ruc: '',
      dv: '',
      name: 'Ana Pérez',
      address: '',
      locationCode: '',
      email: '',
    });
  });

  it('else take the client block of the document as mapped', () => {
    const document = { dataTransaction: { client: TAXPAYER_CLIENT_BLOCK } };
    expect(clientFields({ ...none, document, order: orderOf({}) })).toEqual(TAXPAYER_CORRECTION);
  });

  it('else read the order: the RUC and DV as typed (a wrong DV included), the name, address, location and e-mail', () => {
    const order = orderOf({
      note_attributes: [
        { name: 'RUC', value: ' 155596713-2-2015 DV 58 ' },
        { name: 'razon_social', value: 'Ferretería Central, S.A.' },
        { name: 'codigo_ubicacion', value: '8-8-8' },
      ],
    });
    expect(clientFields({ ...none, order })).toEqual({
      type: 'taxpayer',
      ruc: '155596713-2-2015',
      dv: '58',
      name: 'Ferretería Central, S.A.',
      address: 'Calle 50, Panamá',
      locationCode: '8-8-8',
      email: 'cliente@example.com',
    });
    // A separate DV attribute goes with the RUC attribute.
    expect(
      clientFields({
        ...none,
        order: orderOf({
          note_attributes: [
            { name: 'ruc', value: '8-442-445' },
            { name: 'dv', value: '7' },
          ],
        }),
      }),
    ).toMatchObject({
      ruc: '8-442-445',
      dv: '7',
      name: 'Ana Pérez',
    });
  });

  it('without a RUC in the order, a final consumer; without anything readable, empty', () => {
    expect(clientFields({ ...none, order: orderOf({}) })).toEqual({
      type: 'final_consumer',
      ruc: '',
      dv: '',
      name: 'Ana Pérez',
      address: 'Calle 50, Panamá',
      locationCode: '8-8-7',
      email: 'cliente@example.com',
    });
    expect(clientFields({ ...none, document: { dataTransaction: { client: { typeClientEB: 1 } } } })).toEqual({
      type: 'final_consumer',
      ruc: '',
      dv: '',
      name: '',
      address: '',
      locationCode: '',
      email: '',
    });
  });
});
