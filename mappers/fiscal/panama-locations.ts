// Panama's provinces, districts and corregimientos with the DGI location code (dCodUbi).
// Data: common-repository/panafacturas-factura-electronica Files/Corregimientos.json (+ Distritos.json,
// Provincias.json), 2024, 646 entries, names in the upper case the PAC catalogues use.
import data from './data/panama-locations.json' with { type: 'json' };

export interface PanamaLocation {
  /** `<provincia>-<distrito>-<corregimiento>`, plain integers, e.g. "8-8-7". */
  readonly code: string;
  readonly province: string;
  readonly district: string;
  readonly corregimiento: string;
}

export interface LocationQuery {
  readonly province?: string;
  readonly district?: string;
  readonly corregimiento?: string;
}

export const PANAMA_LOCATIONS: readonly PanamaLocation[] = Object.freeze(data.map((entry): PanamaLocation => Object.freeze({ ...entry })));

const BY_CODE: ReadonlyMap<string, PanamaLocation> = new Map(PANAMA_LOCATIONS.map((entry) => [entry.code, entry]));

/** The entry for a code such as "8-8-7"; leading zeros and spaces around hyphens are tolerated. */
export function findLocationByCode(code: string): PanamaLocation | undefined {
  const m = /^\s*(\d{1,3})\s*-\s*(\d{1,3})\s*-\s*(\d{1,3})\s*$/.exec(code);
  if (!m) return undefined;
  return BY_CODE.get(`${Number(m[1])}-${Number(m[2])}-${Number(m[3])}`);
}

/**
 * The single entry whose names match every given field (accent-, case- and spacing-insensitive).
 * Undefined when nothing matches, when the query has no field, or when several entries match
 * (use findLocations to see them).
 */
export function findLocation(query: LocationQuery): PanamaLocation | undefined {
  const matches = findLocations(query);
  return matches.length === 1 ? matches[0] : undefined;
}

/** Every entry matching the given fields, in catalogue order; empty for an empty query. */
export function findLocations(query: LocationQuery): readonly PanamaLocation[] {
  const province = query.province === undefined ? undefined : normalizeName(query.province);
  const district = query.district === undefined ? undefined : normalizeName(query.district);
  const corregimiento = query.corregimiento === undefined ? undefined : normalizeName(query.corregimiento);
  if (province === undefined && district === undefined && corregimiento === undefined) return [];
  return INDEX.filter(
    (entry) =>
      (province === undefined || entry.provinceNames.has(province)) &&
      (district === undefined || entry.districtNames.has(district)) &&
      (corregimiento === undefined || entry.corregimientoNames.has(corregimiento)),
  ).map((entry) => entry.location);
}

/** Upper case, no diacritics (Ñ → N, Ä → A), hyphens and runs of spaces as one space. */
export function normalizeName(name: string): string {
  return name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toUpperCase()
    .replace(/[-–_.,]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

// Other spellings of the comarca names people write (Guna for Kuna, Ngöbe for Ngäbe, no "Comarca").
const PROVINCE_ALIASES: Readonly<Record<string, readonly string[]>> = {
  '10': ['GUNA YALA', 'COMARCA GUNA YALA', 'KUNA YALA', 'SAN BLAS'],
  '11': ['EMBERA', 'COMARCA EMBERA', 'EMBERA WOUNAAN'],
  '12': ['NGABE BUGLE', 'NGOBE BUGLE', 'COMARCA NGOBE BUGLE'],
};

interface IndexedLocation {
  readonly location: PanamaLocation;
  readonly provinceNames: ReadonlySet<string>;
  readonly districtNames: ReadonlySet<string>;
  readonly corregimientoNames: ReadonlySet<string>;
}

const INDEX: readonly IndexedLocation[] = PANAMA_LOCATIONS.map((location) => ({
  location,
  provinceNames: new Set([normalizeName(location.province), ...(PROVINCE_ALIASES[location.code.split('-')[0]!] ?? [])]),
  districtNames: new Set(nameVariants(location.district)),
  corregimientoNames: new Set(nameVariants(location.corregimiento)),
}));

/**
 * The full name plus the forms people type: without "(CABECERA)" and each side of an
 * "X O Y" double name ("LA EXPOSICION O CALIDONIA" also answers to "Calidonia").
 */
function nameVariants(name: string): string[] {
  const full = normalizeName(name);
  const bare = normalizeName(name.replace(/\(\s*CABECERA\s*\)/i, ''));
  const variants = new Set([full]);
  if (bare !== '') variants.add(bare);
  for (const part of bare.split(' O ')) {
    if (part.trim() !== '') variants.add(part.trim());
  }
  return [...variants];
}
