import { describe, expect, it } from 'vitest';
import {
  PANAMA_LOCATIONS,
  findLocation,
  findLocationByCode,
  findLocations,
  normalizeName,
} from '../../../mappers/fiscal/panama-locations.ts';

// Source: panafacturas-factura-electronica Files/Corregimientos.json (2024) has 646 entries.
const SOURCE_ENTRY_COUNT = 646;

const PROVINCES: Readonly<Record<number, string>> = {
  1: 'BOCAS DEL TORO',
  2: 'COCLE',
  3: 'COLON',
  4: 'CHIRIQUI',
  5: 'DARIEN',
  6: 'HERRERA',
  7: 'LOS SANTOS',
  8: 'PANAMA',
  9: 'VERAGUAS',
  10: 'COMARCA KUNA YALA',
  11: 'COMARCA EMBERA-WOUNAAN',
  12: 'COMARCA NGÄBE-BUGLE',
  13: 'PANAMA OESTE',
};

describe('catalogue shape', () => {
  it('has as many entries as the source', () => {
    expect(PANAMA_LOCATIONS).toHaveLength(SOURCE_ENTRY_COUNT);
  });

  it('has well-formed, unique codes with provinces 1–13', () => {
    const codes = PANAMA_LOCATIONS.map((entry) => entry.code);
    for (const code of codes) expect(code).toMatch(/^\d{1,2}-\d{1,2}-\d{1,2}$/);
    expect(new Set(codes).size).toBe(codes.length);
    for (const code of codes) {
      const province = Number(code.split('-')[0]);
      expect(province).toBeGreaterThanOrEqual(1);
      expect(province).toBeLessThanOrEqual(13);
    }
    // HKA limits codeLocation to 8 characters.
    expect(Math.max(...codes.map((code) => code.length))).toBeLessThanOrEqual(8);
  });

  it('uses no zero and no padded segment', () => {
    for (const { code } of PANAMA_LOCATIONS) expect(code).not.toMatch(/(^|-)0/);
  });

  it('names each province consistently with §3.7 numbering', () => {
    for (const entry of PANAMA_LOCATIONS) {
      expect(entry.province).toBe(PROVINCES[Number(entry.code.split('-')[0])]);
    }
    expect(new Set(PANAMA_LOCATIONS.map((entry) => entry.province)).size).toBe(13);
  });

  it('has every name non-empty and one district name per district code', () => {
    const districtNames = new Map<string, string>();
    for (const entry of PANAMA_LOCATIONS) {
      expect(entry.province.trim()).not.toBe('');
      expect(entry.district.trim()).not.toBe('');
      expect(entry.corregimiento.trim()).not.toBe('');
      const districtCode = entry.code.split('-').slice(0, 2).join('-');
      const seen = districtNames.get(districtCode);
      if (seen === undefined) districtNames.set(districtCode, entry.district);
      else expect(entry.district).toBe(seen);
    }
    expect(districtNames.size).toBe(79);
  });

  it('is frozen', () => {
    expect(Object.isFrozen(PANAMA_LOCATIONS)).toBe(true);
    expect(Object.isFrozen(PANAMA_LOCATIONS[0])).toBe(true);
  });
});

describe('findLocationByCode', () => {
  it('8-8-7 is Panamá / Panamá / Bella Vista', () => {
    expect(findLocationByCode('8-8-7')).toEqual({
      code: '8-8-7',
      province: 'PANAMA',
      district: 'PANAMA',
      corregimiento: 'BELLA VISTA',
    });
  });

  it('4-6-1 is David cabecera, Chiriquí', () => {
    expect(findLocationByCode('4-6-1')).toEqual({
      code: '4-6-1',
      province: 'CHIRIQUI',
      district: 'DAVID',
      corregimiento: 'DAVID (CABECERA)',
    });
  });

  it('1-1-1 is Bocas del Toro cabecera and 1-4-1 is Almirante (2024 district)', () => {
    expect(findLocationByCode('1-1-1')?.corregimiento).toBe('BOCAS DEL TORO (CABECERA)');
    expect(findLocationByCode('1-4-1')).toEqual({
      code: '1-4-1',
      province: 'BOCAS DEL TORO',
      district: 'ALMIRANTE',
      corregimiento: 'ALMIRANTE (CABECERA)',
    });
    // Almirante left Changuinola: the old 1-2-2 code is gone.
    expect(findLocationByCode('1-2-2')).toBeUndefined();
  });

  it('reads the last entry and a two-digit province', () => {
    expect(findLocationByCode('13-5-9')).toEqual({
      code: '13-5-9',
      province: 'PANAMA OESTE',
      district: 'SAN CARLOS',
      corregimiento: 'SAN JOSE',
    });
    expect(findLocationByCode('12-9-1')?.district).toBe('SANTA CATALINA O CALOVEBORA (BLEDESHIA)');
  });

  it('tolerates zero padding and spaces, rejects junk', () => {
    expect(findLocationByCode('08-08-07')?.corregimiento).toBe('BELLA VISTA');
    expect(findLocationByCode(' 8 - 8 - 7 ')?.corregimiento).toBe('BELLA VISTA');
    expect(findLocationByCode('8-8')).toBeUndefined();
    expect(findLocationByCode('8-8-99')).toBeUndefined();
    expect(findLocationByCode('14-1-1')).toBeUndefined();
    expect(findLocationByCode('8/8/7')).toBeUndefined();
    expect(findLocationByCode('')).toBeUndefined();
  });
});

describe('findLocation', () => {
  it('matches names without accents or case', () => {
    expect(findLocation({ province: 'Panamá', district: 'Panamá', corregimiento: 'Bella Vista' })?.code).toBe('8-8-7');
    expect(findLocation({ province: 'panama', district: 'PANAMA', corregimiento: 'bella   vista' })?.code).toBe('8-8-7');
    expect(findLocation({ province: 'Chiriquí', district: 'David', corregimiento: 'David' })?.code).toBe('4-6-1');
  });

  it('finds names the source spells with Ñ from plain N and the reverse', () => {
    expect(findLocation({ corregimiento: 'Punta Pena' })?.code).toBe('1-3-3');
    expect(findLocation({ corregimiento: 'Punta Peña' })?.code).toBe('1-3-3');
    expect(findLocation({ district: 'Cañazas', corregimiento: 'Cerro Plata' })?.code).toBe('9-3-2');
  });

  it('matches a corregimiento with or without "(Cabecera)" and either side of an "o" name', () => {
    expect(findLocation({ district: 'Bugaba', corregimiento: 'La Concepción' })?.code).toBe('4-5-1');
    expect(findLocation({ district: 'Bugaba', corregimiento: 'La Concepción (Cabecera)' })?.code).toBe('4-5-1');
    expect(findLocation({ district: 'Panamá', corregimiento: 'Calidonia' })?.code).toBe('8-8-4');
    expect(findLocation({ district: 'Panamá', corregimiento: 'La Exposición o Calidonia' })?.code).toBe('8-8-4');
  });

  it('accepts the usual spellings of the comarcas', () => {
    expect(findLocation({ province: 'Guna Yala', corregimiento: 'Narganá' })?.code).toBe('10-1-1');
    expect(findLocation({ province: 'Comarca Kuna Yala', corregimiento: 'Narganá' })?.code).toBe('10-1-1');
    expect(findLocation({ province: 'Ngöbe-Buglé', district: 'Besikó', corregimiento: 'Soloy' })?.code).toBe('12-1-1');
    expect(findLocation({ province: 'Emberá', corregimiento: 'Jingurudó' })?.code).toBe('11-2-2');
  });

  it('narrows with province and district when a corregimiento name repeats', () => {
    // Bella Vista is a corregimiento of Panamá (8-8-7) and of Tolé (4-13-2).
    expect(findLocation({ corregimiento: 'Bella Vista' })).toBeUndefined();
    expect(findLocations({ corregimiento: 'Bella Vista' }).map((entry) => entry.code)).toEqual(['4-13-2', '8-8-7']);
    expect(findLocation({ province: 'Chiriquí', corregimiento: 'Bella Vista' })?.code).toBe('4-13-2');
    expect(findLocation({ district: 'Panamá', corregimiento: 'Bella Vista' })?.code).toBe('8-8-7');
  });

  it('returns undefined for a mismatch, an ambiguity or an empty query', () => {
    expect(findLocation({ province: 'Colón', corregimiento: 'Bella Vista' })).toBeUndefined();
    expect(findLocation({ district: 'Panamá' })).toBeUndefined(); // 26 corregimientos
    expect(findLocations({ district: 'Panamá', province: 'Panamá' })).toHaveLength(26);
    expect(findLocation({})).toBeUndefined();
    expect(findLocations({})).toEqual([]);
    expect(findLocation({ corregimiento: 'Atlantis' })).toBeUndefined();
  });
});

describe('normalizeName', () => {
  it('strips diacritics, case, hyphens and extra spaces', () => {
    expect(normalizeName('  Ngäbe-Buglé ')).toBe('NGABE BUGLE');
    expect(normalizeName('Chiriquí')).toBe('CHIRIQUI');
    expect(normalizeName('Cañazas')).toBe('CANAZAS');
  });
});
