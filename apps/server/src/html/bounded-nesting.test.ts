import { describe, expect, it } from 'vitest';
import { boundedNesting, MAX_PARSED_NESTING, nestsDeeperThan } from './bounded-nesting.ts';

describe('nestsDeeperThan', () => {
  it('counts the elements a parser holds open', () => {
    expect(nestsDeeperThan('<b>'.repeat(11), 10)).toBe(true);
    expect(nestsDeeperThan('<b>'.repeat(10), 10)).toBe(false);
    // Closed elements, void elements and an implied close (a <p> closes the open <p>) do not add up.
    expect(nestsDeeperThan('<b></b>'.repeat(100), 10)).toBe(false);
    expect(nestsDeeperThan('<br><img src="x"><hr>'.repeat(100), 10)).toBe(false);
    expect(nestsDeeperThan('<p>a'.repeat(100), 10)).toBe(false);
    // A closing tag of an element that is not open closes nothing.
    expect(nestsDeeperThan(`${'<b>'.repeat(6)}${'</i>'.repeat(6)}${'<b>'.repeat(6)}`, 10)).toBe(true);
    // Tags inside a quoted attribute value are not elements.
    expect(nestsDeeperThan(`<p title="${'<b>'.repeat(100)}">x</p>`, 10)).toBe(false);
  });
});

describe('boundedNesting', () => {
  it('leaves HTML within the limit as it is', () => {
    const html = `${'<blockquote>'.repeat(MAX_PARSED_NESTING)}x &amp; y`;
    expect(boundedNesting(html)).toBe(html);
  });

  it('reads deeper HTML as its text in one paragraph, entities kept', () => {
    const html = `${'<blockquote>'.repeat(MAX_PARSED_NESTING + 1)}x &amp; <b title="a">y</b> 1 > 0 <z`;
    expect(boundedNesting(html)).toBe('<p>x &amp; y 1 &gt; 0 &lt;z</p>');
  });
});
