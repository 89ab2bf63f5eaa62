// 201: the buyer (`client`) by its type: codes, country against destination, RUC and check digit, lengths
// (docs/reference/panama-fe.md §3.6–§3.8).
import { rucCheckDigit } from '../fiscal/ruc-check-digit.ts';
import { CLIENT_OPTIONAL_FIELDS } from './gateway-fields.ts';
import { checkCode } from './code-tables.ts';
import {
  checkFormat,
  checkLength,
  checkOptionalStrings,
  firstOf,
  invalid,
  present,
  rule,
  type Json,
  type RuleProblem,
} from './rule-problem.ts';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const CODE_LOCATION = /^[1-9]\d?-[1-9]\d?-[1-9]\d?$/;
const COUNTRY = /^[A-Z]{2}$/;
const RUC_FIELDS = ['typeTaxpayer', 'numberRUC', 'digitCheckRUC'] as const;

export function checkClient(client: Json, data: Json): RuleProblem | undefined {
  const type = client.typeClientEB as string;
  const country = client.country as string;
  return firstOf(
    () => checkCode(client, 'typeClientEB'),
    () => checkOptionalStrings(client, CLIENT_OPTIONAL_FIELDS),
    () => checkFormat(client, 'country', COUNTRY, 'debe ser un código ISO de 2 letras mayúsculas (§3.8)'),
    () =>
      data.destinationOperation === '1' && country !== 'PA'
        ? rule('1611', undefined, 'country', `country "${country}" debe ser PA cuando destinationOperation es 1`)
        : undefined,
    () =>
      data.destinationOperation === '2' && country === 'PA'
        ? rule('1612', undefined, 'country', 'country no puede ser PA cuando destinationOperation es 2')
        : undefined,
    () => (type === '04' ? checkForeignClient(client) : undefined),
    () => (present(client.typeTaxpayer) ? checkCode(client, 'typeTaxpayer') : undefined),
    () => (type === '01' || type === '03' ? checkClientWithRuc(client) : undefined),
    () => checkLength(client, 'businessName', 2, 200),
    () => checkLength(client, 'address', type === '01' || type === '03' ? 5 : 1, 100),
    () => (present(client.email1) ? checkFormat(client, 'email1', EMAIL, 'no es una dirección de correo válida') : undefined),
    () => checkLength(client, 'email1', 3, 100),
    () =>
      present(client.codeLocation)
        ? checkFormat(
            client,
            'codeLocation',
            CODE_LOCATION,
            'debe ser provincia-distrito-corregimiento, números sin ceros de relleno (ej. 8-8-7)',
          )
        : undefined,
    () => checkLength(client, 'codeLocation', 5, 8),
  );
}

/** A foreign client (04) carries no RUC group: HKA answers a generic 201 when it does (§3.6, S15). */
function checkForeignClient(client: Json): RuleProblem | undefined {
  const sent = RUC_FIELDS.find((f) => present(client[f]));
  if (sent === undefined) return undefined;
  return invalid(sent, `regla §3.6 cliente extranjero: typeClientEB 04 no debe llevar ${sent}`);
}

function checkClientWithRuc(client: Json): RuleProblem | undefined {
  const ruc = client.numberRUC as string;
  const dv = client.digitCheckRUC as string;
  if (!/^\d{2}$/.test(dv)) {
    return invalid('digitCheckRUC', `formato inválido: digitCheckRUC "${dv}" debe tener 2 dígitos`);
  }
  const expected = rucCheckDigit(ruc);
  if (expected.kind === 'malformed') {
    return rule('1601', undefined, 'numberRUC', `numberRUC "${ruc}" no es un RUC ni una cédula en segmentos separados por guiones`);
  }
  // A form whose DV rule the reference does not state is not judged (see fiscal/ruc-check-digit.ts).
  if (expected.kind === 'stated' && expected.dv !== dv) {
    return rule('1601', undefined, 'digitCheckRUC', `digitCheckRUC ${dv} no es el dígito verificador del RUC ${ruc}`);
  }
  return undefined;
}
