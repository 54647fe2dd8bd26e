import { describe, expect, it } from 'vitest';
import {
  BIO_COLLAPSE_THRESHOLD,
  bioIsCollapsible,
  courseContentSummary,
  courseKeyword,
  courseKeywordTitle,
  htmlToText,
  levelLabel,
  sectionTitle,
  showCourseContent,
  titleCase,
  truncateBio,
} from '../../src/domain/text.ts';

describe('bio rules (spec 2.8 / 2.13 / 9)', () => {
  it('collapses above 520 characters of text, tags not counted', () => {
    expect(BIO_COLLAPSE_THRESHOLD).toBe(520);
    expect(bioIsCollapsible(`<p>${'a'.repeat(520)}</p>`)).toBe(false);
    expect(bioIsCollapsible(`<p>${'a'.repeat(521)}</p>`)).toBe(true);
    expect(bioIsCollapsible(`<p><strong>${'a'.repeat(500)}</strong></p>`)).toBe(false);
    expect(bioIsCollapsible(`${'&amp;'.repeat(520)}`)).toBe(false);
    expect(bioIsCollapsible(null)).toBe(false);
  });
  it('htmlToText strips tags, decodes entities and collapses space', () => {
    expect(htmlToText('<p>Hello&nbsp;<b>world</b></p>\n<p>&lt;3 &#8364;5 &#x41;</p>')).toBe('Hello world <3 €5 A');
    expect(htmlToText('<script>alert(1)</script>Hi')).toBe('Hi');
  });
  it("truncates at 280 with '...'", () => {
    const exact = 'a'.repeat(280);
    expect(truncateBio(exact)).toBe(exact);
    expect(truncateBio(`${exact}b`)).toBe(`${exact}...`);
    expect(truncateBio('hello world', 6)).toBe('hello...');
    expect(truncateBio(undefined)).toBe('');
  });
});

describe('levelLabel (spec 3)', () => {
  it.each([
    ['All', 'All levels'],
    ['Beginner', 'Beginner level'],
    ['Advanced', 'Advanced level'],
    ['', ''],
    [null, ''],
  ])('%j → %j', (level, label) => {
    expect(levelLabel(level)).toBe(label);
  });
});

describe('keyword helpers (spec 3)', () => {
  it('fall back to course / Course', () => {
    expect(courseKeyword({ keyword: 'workshop' })).toBe('workshop');
    expect(courseKeyword({ keyword: '  ' })).toBe('course');
    expect(courseKeyword(null)).toBe('course');
    expect(courseKeywordTitle({ keyword: 'Retreat' })).toBe('Retreat');
    expect(courseKeywordTitle({})).toBe('Course');
  });
  it('titleCase', () => {
    expect(titleCase('first_name')).toBe('First Name');
    expect(titleCase('billingAddress')).toBe('Billing Address');
    expect(titleCase('system-email')).toBe('System Email');
    expect(titleCase('email')).toBe('Email');
  });
});

describe('course content (spec 2.13 (10))', () => {
  const sections = [
    { name: 'Intro', contents: [{ type: 'lesson', ref: 'l1' }] },
    { name: 'Main', contents: [{ type: 'lesson', ref: 'l2' }, { type: 'lesson', ref: 'l3' }] },
  ];
  it("summarises 'N sections • M lessons'", () => {
    expect(courseContentSummary(sections)).toBe('2 sections • 3 lessons');
    expect(courseContentSummary([sections[0]])).toBe('1 section • 1 lesson');
  });
  it("names a single section 'Contents'", () => {
    expect(sectionTitle(sections[0], 1)).toBe('Contents');
    expect(sectionTitle(sections[0], 2)).toBe('Intro');
  });
  it('shows only for blended and on-demand with lessons', () => {
    expect(showCourseContent('blended', sections)).toBe(true);
    expect(showCourseContent('on-demand', sections)).toBe(true);
    expect(showCourseContent('class', sections)).toBe(false);
    expect(showCourseContent('on-demand', [])).toBe(false);
    expect(showCourseContent('on-demand', [{ name: 'x', contents: [] }])).toBe(false);
  });
});
