import { markdownToHtml, plainToHtml, sanitizeChatHtml } from '../../server/ai/drivers/html';

describe('AI chat HTML', () => {
  it('renders markdown and keeps raw HTML as text', () => {
    const html = markdownToHtml('**bold** and <script>alert(1)</script>\n\n- a\n- b');
    expect(html).toContain('<strong>bold</strong>');
    expect(html).toContain('&lt;script&gt;');
    expect(html).not.toContain('<script>');
    expect(html).toContain('<li>a</li>');
  });

  it('keeps safe links only, opened in a new tab without the opener', () => {
    expect(markdownToHtml('[x](javascript:alert(1))')).not.toContain('href');
    expect(markdownToHtml('[x](https://example.com)')).toBe(
      '<p><a href="https://example.com" target="_blank" rel="noopener noreferrer nofollow">x</a></p>',
    );
  });

  it('sanitises HTML read from a page (the browser driver)', () => {
    const html = sanitizeChatHtml(
      '<div onclick="x()"><p style="color:red">hi</p><img src=x onerror=alert(1)><iframe></iframe></div>',
    );
    expect(html).toBe('<div><p>hi</p></div>');
  });

  it('escapes what the operator typed and keeps its line breaks', () => {
    expect(plainToHtml('a <b>\nc & d')).toBe('<p>a &lt;b&gt;<br>c &amp; d</p>');
  });
});
