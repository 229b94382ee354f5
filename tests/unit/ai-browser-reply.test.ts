import { jsonPrompt, parseJsonReply } from '../../server/ai/drivers/browser/chat-page';
import { sanitizeChatHtml } from '../../server/ai/drivers/html';
import { siteAdapter } from '../../server/ai/drivers/browser/sites';

describe('browser driver: reading replies', () => {
  it('keeps Markdown markup and drops everything that runs or loads', () => {
    const html = sanitizeChatHtml(
      '<p onclick="x()">Hi <strong>there</strong> <img src=x onerror="y()"><script>z()</script></p>' +
        '<pre><code class="language-ts hljs">let a = 1;</code></pre><iframe src="https://e.x"></iframe>' +
        '<a href="javascript:alert(1)">bad</a><a href="https://ok.example/" target="_self">ok</a><style>p{}</style>',
    );
    expect(html).toBe(
      '<p>Hi <strong>there</strong> </p><pre><code class="language-ts">let a = 1;</code></pre>' +
        '<a target="_blank" rel="noopener noreferrer nofollow">bad</a>' +
        '<a href="https://ok.example/" target="_blank" rel="noopener noreferrer nofollow">ok</a>',
    );
  });

  it('finds the JSON object in prose, a code fence or bare text', () => {
    expect(parseJsonReply('{"a":1}')).toEqual({ a: 1 });
    expect(parseJsonReply('Here it is:\n```json\n{"a": {"b": [1]}}\n```\nEnjoy')).toEqual({ a: { b: [1] } });
    expect(parseJsonReply('Sure! {"title":"x"} hope it helps')).toEqual({ title: 'x' });
    expect(() => parseJsonReply('no json here')).toThrow(SyntaxError);
    expect(jsonPrompt('Make a video', 'video_meta')).toMatch(/^Make a video\n\nAnswer with JSON only/);
  });

  it('builds a site from data with the configured base URL and selector overrides', () => {
    const gpt = siteAdapter('gpt', 'http://127.0.0.1:9999/', { composer: '#new-box' });
    expect(gpt.baseUrl).toBe('http://127.0.0.1:9999');
    expect(gpt.selectors.composer).toBe('#new-box');
    expect(gpt.selectors.send).toBe('button[data-testid="send-button"]');
    expect(siteAdapter('deepseek').baseUrl).toBe('https://chat.deepseek.com');
  });
});
