// The prompt's language (seed 000, create_course_from_prompt: "`<language>` … ISO 639-1 (default:
// language of the prompt)"): any language the detector knows comes back as its ISO 639-1 code.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bundlePath } from '../../lib/paths.ts';
import { detectedLanguages, detectLanguage } from './generate.ts';

describe('detectLanguage (seed 000: default language of the prompt)', () => {
  it.each([
    ['Fire safety for warehouse staff', 'en'],
    ['Erstelle einen Kurs über Brandschutz im Lager', 'de'],
    ['Un corso sulla sicurezza antincendio in magazzino', 'it'],
    ['Курс з пожежної безпеки на складі для працівників', 'uk'],
    ['Курс по пожарной безопасности на складе', 'ru'],
    ['Een cursus over brandveiligheid in het magazijn', 'nl'],
    ['倉庫スタッフのための防火安全コース', 'ja'],
    ['Kurs bezpieczeństwa pożarowego dla pracowników magazynu', 'pl'],
    ['Curso de seguridad contra incendios', 'es'],
    ['Curso de segurança contra incêndios para funcionários', 'pt'],
    ['Cours de sécurité incendie pour le personnel', 'fr'],
  ])('%s → %s', (prompt, language) => {
    expect(detectLanguage(prompt)).toBe(language);
  });

  it('is deterministic, and says en when a prompt is too short to tell', () => {
    expect(detectLanguage('Ladders')).toBe('en');
    expect(detectLanguage('Ladder safety')).toBe('en');
    const prompt = 'Un corso sulla sicurezza antincendio in magazzino';
    expect(new Set(Array.from({ length: 5 }, () => detectLanguage(prompt)))).toEqual(new Set(['it']));
  });

  it("every language it can name is one of the v2 contract's LanguageCode", () => {
    const spec = JSON.parse(readFileSync(bundlePath('v2'), 'utf8'));
    const codes = new Set<string>(spec.components.schemas.LanguageCode.enum);
    expect(detectedLanguages().size).toBeGreaterThan(50);
    expect([...detectedLanguages()].filter((c) => !codes.has(c))).toEqual([]);
  });
});
