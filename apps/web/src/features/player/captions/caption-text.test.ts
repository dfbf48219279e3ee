// @vitest-environment jsdom
// DOMPurify is checked against jsdom: happy-dom's parser loses a cue's first text node.
import { describe, expect, it } from 'vitest';
import { captionHtml, fixCasing, sanitizeCaption } from './caption-text.ts';
import { captionStyle, clampDelaySetting } from './caption-style.ts';

describe('caption text', () => {
  it('keeps the caption tags: c, b, i, u, span, ruby, rt, br, v, lang', () => {
    const html = '<b>bold</b> <i>it</i> <u>u</u> <span lang="fr">fr</span> <ruby>漢<rt>kan</rt></ruby><br>';
    expect(sanitizeCaption(html)).toBe(html);
  });

  it('removes scripts, handlers, links, images, styles and iframes', () => {
    const attacks = [
      '<script>alert(1)</script>hello',
      '<img src=x onerror=alert(1)>hello',
      '<b onclick="alert(1)">hello</b>',
      '<a href="javascript:alert(1)">hello</a>',
      '<iframe src="https://evil.test"></iframe>hello',
      '<svg><script>alert(1)</script></svg>hello',
      '<span style="background:url(javascript:alert(1))">hello</span>',
      '<details open ontoggle=alert(1)>hello',
      '<b>hello</b><object data="x"></object>',
    ];
    for (const attack of attacks) {
      const out = sanitizeCaption(attack);
      expect(out).not.toMatch(
        /<script|onerror|onclick|ontoggle|javascript:|<img|<iframe|<a |<svg|<object|<style|style=/i,
      );
      expect(out).toContain('hello');
    }
    // Mutation-XSS shapes: whatever is left is inert.
    for (const attack of [
      '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
      '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
      '<form><math><mtext></form><form><mglyph><svg><mtext><style><path id="</style><img onerror=alert(1) src>">',
    ]) {
      expect(sanitizeCaption(attack)).not.toMatch(/<img|onerror|<svg|<style|<form|<math/i);
    }
  });

  it('escapes text that only looks like markup once rendered', () => {
    const out = captionHtml('5 < 6 & "quotes"', { fixCapitalisation: false });
    expect(out).toBe('5 &lt; 6 &amp; "quotes"');
  });

  it('newlines become <br>, a standalone i becomes I', () => {
    expect(captionHtml("i think\ni'm here", { fixCapitalisation: false })).toBe("I think<br>I'm here");
    expect(captionHtml('this is it', { fixCapitalisation: false })).toBe('this is it');
  });

  it('fix capitalisation: lower case but the first letter', () => {
    expect(fixCasing('HELLO THERE, GENERAL')).toBe('Hello there, general');
    expect(captionHtml('WHERE AM I', { fixCapitalisation: true })).toBe('Where am I');
  });

  it('style: 1.5 em × size, background opacity, blur up to 64 px, bold', () => {
    expect(
      captionStyle({ color: '#e2e535', backgroundOpacity: 0.25, backgroundBlur: 1, size: 2, bold: true }),
    ).toMatchObject({
      color: '#e2e535',
      fontSize: '3.000em',
      backgroundColor: 'rgba(0, 0, 0, 0.25)',
      backdropFilter: 'blur(64px)',
      fontWeight: 700,
    });
    expect(
      captionStyle({ color: '#ffffff', backgroundOpacity: 0, backgroundBlur: 0, size: 0.01, bold: false }),
    ).toMatchObject({ fontSize: '0.015em', backdropFilter: 'none', fontWeight: 400 });
  });

  it('delay: −10…10 s in 0.1 s steps', () => {
    expect(clampDelaySetting(12)).toBe(10);
    expect(clampDelaySetting(-10.04)).toBe(-10);
    expect(clampDelaySetting(0.1 + 0.2)).toBe(0.3);
    expect(clampDelaySetting(-2.36)).toBe(-2.4);
  });
});
