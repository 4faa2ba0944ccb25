/**
 * The XSS corpus the WebMCP `html` safety pass is held to (test/library/webmcp-xss.test.ts). Every
 * vector calls `alert(1)`, so an execution anywhere (the page or a frame) shows as a dialog.
 *
 * Written here from the classes of attack the HTML parsing spec makes possible: event handlers on every
 * element that fires one unprompted, script URLs behind every URL-bearing attribute with the
 * obfuscations the URL parser forgives (controls, entities, case, whitespace), frames and documents
 * inside attributes, and parser differentials (raw-text elements, foreign content, `noscript` parsed
 * with and without scripting, templates, comments, tables) that turn inert markup into live markup
 * when it is serialized and parsed again ("mutation XSS").
 */

export interface XssVector {
  readonly name: string;
  readonly html: string;
}

const JS = 'alert(1)';

/** Elements that run an event handler with no user action, and the handler that runs. */
const SELF_FIRING: readonly [string, string][] = [
  ['img onerror', `<img src=x onerror=${JS}>`],
  ['img onerror (quoted, slash)', `<img/src="x"/onerror="${JS}">`],
  ['img onerror (backtick-free, newline)', `<img\nsrc=x\nonerror=${JS}>`],
  ['image (parsed as img)', `<image src=x onerror=${JS}>`],
  ['svg onload', `<svg onload=${JS}>`],
  ['svg/onload (slash separator)', `<svg/onload=${JS}>`],
  ['body onload', `<body onload=${JS}>`],
  ['input autofocus onfocus', `<input autofocus onfocus=${JS}>`],
  ['textarea autofocus onfocus', `<textarea autofocus onfocus=${JS}></textarea>`],
  ['select autofocus onfocus', `<select autofocus onfocus=${JS}></select>`],
  ['details open ontoggle', `<details open ontoggle=${JS}>`],
  ['video source onerror', `<video><source onerror=${JS}></video>`],
  ['video poster onerror', `<video poster=x onerror=${JS}></video>`],
  ['audio onerror', `<audio src=x onerror=${JS}></audio>`],
  ['iframe onload', `<iframe onload=${JS}></iframe>`],
  ['object onerror', `<object data=x onerror=${JS}></object>`],
  ['style onload', `<style onload=${JS}></style>`],
  ['link onload', `<link rel=stylesheet href=data:text/css, onload=${JS}>`],
  ['marquee onstart', `<marquee onstart=${JS}>x</marquee>`],
  ['svg animate onbegin', `<svg><animate onbegin=${JS} attributeName=x dur=1s>`],
  ['svg set onbegin', `<svg><set onbegin=${JS} attributeName=x to=1>`],
  ['svg image onerror', `<svg><image href=x onerror=${JS}></svg>`],
  [
    'css animation onanimationstart',
    `<style>@keyframes k{}</style><b style=animation-name:k onanimationstart=${JS}>x</b>`,
  ],
  ['css transition ontransitionend', `<b style="transition:color 1ms" ontransitionend=${JS}>x</b>`],
  ['focus via id fragment', `<a id=f tabindex=1 onfocusin=${JS} autofocus>x</a>`],
  ['img srcset onerror', `<img srcset=x onerror=${JS}>`],
  ['picture source onerror', `<picture><source srcset=x><img src=x onerror=${JS}></picture>`],
  ['track onerror', `<video><track src=x onerror=${JS}></video>`],
  ['embed onload', `<embed src=x onload=${JS}>`],
  ['form oninput (no action)', `<form oninput=${JS}><input autofocus></form>`],
  ['frameset onload', `<frameset onload=${JS}>`],
  ['handler with entity-encoded code', `<img src=x onerror="&#97;lert(1)">`],
  ['uppercase handler', `<IMG SRC=x ONERROR=${JS}>`],
  ['handler after many attributes', `<img a=1 b=2 c=3 d=4 src=x e=5 onerror=${JS}>`],
];

/** Script URLs written the ways a URL parser still reads as `javascript:`. */
const SCRIPT_URLS: readonly [string, string][] = [
  ['plain', `javascript:${JS}`],
  ['mixed case', `JaVaScRiPt:${JS}`],
  ['leading space', ` javascript:${JS}`],
  ['tab inside', `java\tscript:${JS}`],
  ['newline inside', `java\nscript:${JS}`],
  ['entity tab', `java&#9;script:${JS}`],
  ['entity newline', `java&#x0A;script:${JS}`],
  ['entity colon', `javascript&colon;${JS}`],
  ['decimal entities', '&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)'],
  ['hex entities without semicolons', '&#x6A&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&#x3A;alert(1)'],
  ['leading control character', `\u0001javascript:${JS}`],
  ['leading entity control', `&#1;javascript:${JS}`],
  ['vbscript', 'vbscript:msgbox(1)'],
  ['data text/html', `data:text/html,<script>${JS}</script>`],
  ['data text/html base64', 'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg=='],
];

/** Where a URL can sit, as markup around `URL`. */
const URL_CARRIERS: readonly [string, string][] = [
  ['a href', '<a href="URL">x</a>'],
  ['iframe src', '<iframe src="URL"></iframe>'],
  ['form action', '<form action="URL"><input type=submit></form>'],
  ['button formaction', '<form><button formaction="URL">x</button></form>'],
  ['svg a xlink:href', '<svg><a xlink:href="URL"><text y=20>x</text></a></svg>'],
  ['svg a href', '<svg><a href="URL"><text y=20>x</text></a></svg>'],
  ['area href', '<map name=m><area href="URL" shape=default></map><img usemap=#m src=x>'],
  ['object data', '<object data="URL"></object>'],
  ['embed src', '<embed src="URL">'],
  ['math href', '<math href="URL"><mi>x</mi></math>'],
];

/** Namespace and raw-text confusion: markup one parse sees as text and a later parse as elements. */
const DIFFERENTIALS: readonly [string, string][] = [
  ['noscript img', `<noscript><img src=x onerror=${JS}></noscript>`],
  ['noscript attribute breakout', `<noscript><p title="</noscript><img src=x onerror=${JS}>"></noscript>`],
  ['noscript style breakout', `<noscript><style></noscript><img src=x onerror=${JS}></style></noscript>`],
  ['noscript in template', `<template><noscript><img src=x onerror=${JS}></noscript></template>`],
  ['noscript in svg', `<svg><noscript><img src=x onerror=${JS}></noscript></svg>`],
  ['template script', `<template><script>${JS}</script></template>`],
  ['template img', `<template><img src=x onerror=${JS}></template>`],
  ['nested template', `<template><template><img src=x onerror=${JS}></template></template>`],
  ['math mglyph style', `<math><mtext><table><mglyph><style><img src=x onerror=${JS}>`],
  [
    'math mtext mglyph svg',
    `<math><mtext><h1><a><h6></a></h6><mglyph><svg><mtext><style><a title="</style><img src=x onerror=${JS}>">`,
  ],
  ['math malignmark style', `<math><mtext><table><malignmark><style><img src=x onerror=${JS}>`],
  ['math annotation-xml', `<math><annotation-xml encoding="text/html"><style><img src=x onerror=${JS}>`],
  ['svg style attribute breakout', `<svg></p><style><a id="</style><img src=1 onerror=${JS}>">`],
  ['svg p breakout', `<svg><p><style><img src=x onerror=${JS}>`],
  ['svg foreignObject img', `<svg><foreignObject><img src=x onerror=${JS}></foreignObject></svg>`],
  ['svg desc img', `<svg><desc><img src=x onerror=${JS}></desc></svg>`],
  ['svg title style', `<svg><title><style><img src=x onerror=${JS}></style></title></svg>`],
  ['svg script', `<svg><script>${JS}</script></svg>`],
  ['svg script href data', `<svg><script href="data:text/javascript,${JS}"/></svg>`],
  ['svg CDATA', `<svg><![CDATA[><img src=x onerror=${JS}>]]></svg>`],
  ['style in select', `<select><style><img src=x onerror=${JS}></style></select>`],
  ['select template', `<select><template><img src=x onerror=${JS}></template></select>`],
  ['textarea breakout', `<textarea></textarea><img src=x onerror=${JS}>`],
  ['title breakout', `<title><img src=x onerror=${JS}></title>`],
  ['xmp text', `<xmp><img src=x onerror=${JS}></xmp>`],
  ['xmp in svg', `<svg><xmp><img src=x onerror=${JS}></xmp></svg>`],
  ['noembed', `<noembed><img src=x onerror=${JS}></noembed>`],
  ['noembed in svg', `<svg><noembed><img title="</noembed><img src=x onerror=${JS}>"></svg>`],
  ['noframes', `<noframes><img src=x onerror=${JS}></noframes>`],
  ['iframe text', `<iframe><img src=x onerror=${JS}></iframe>`],
  ['plaintext', `<plaintext><img src=x onerror=${JS}>`],
  ['comment breakout', `<!--<img src="--><img src=x onerror=${JS}//">`],
  ['bogus comment', `<? foo="><img src=x onerror=${JS}>">`],
  ['comment in attribute', `<p title="<!--"><img src=x onerror=${JS}>--></p>`],
  ['table foster parenting', `<table><img src=x onerror=${JS}></table>`],
  ['table in svg', `<svg><table><img src=x onerror=${JS}>`],
  ['form nesting', `<form><math><mtext></form><form><mglyph><style></math><img src=x onerror=${JS}>`],
  ['attribute with markup', `<a title="&lt;img src=x onerror=${JS}&gt;">x</a>`],
  ['unclosed attribute quote', `<a title='x><img src=x onerror=${JS}>'>y</a>`],
  ['slash in tag name', `<img/onerror=${JS}/src=x>`],
  ['null in tag', `<img\u0000 src=x onerror=${JS}>`],
  ['script with odd closer', `<script>${JS}</script x>`],
  ['script split by comment', `<scr<!---->ipt>${JS}</script>`],
  ['script in attribute value', `<img src="x" alt="<script>${JS}</script>">`],
  [
    'svg use data',
    `<svg><use href="data:image/svg+xml,<svg id='x' xmlns='http://www.w3.org/2000/svg'><image href='1' onerror='${JS}'/></svg>#x"/></svg>`,
  ],
  [
    'svg animate href values',
    `<svg><a><animate attributeName=href values=javascript:${JS} /><text y=20>x</text></a></svg>`,
  ],
  [
    'svg animate xlink:href from',
    `<svg><a><animate attributeName=xlink:href from=javascript:${JS} to=1 /><text y=20>x</text></a></svg>`,
  ],
  ['svg set href to', `<svg><a><set attributeName=href to=javascript:${JS} /><text y=20>x</text></a></svg>`],
  ['svg set of a handler', `<svg><set attributeName=onmouseover to=${JS} /></svg>`],
  ['svg animate of a handler', `<svg><animate attributeName=onload values=${JS} /></svg>`],
  ['iframe srcdoc', `<iframe srcdoc="<script>${JS}</script>"></iframe>`],
  ['iframe srcdoc entity encoded', `<iframe srcdoc="&lt;img src=x onerror=${JS}&gt;"></iframe>`],
  ['frame src', `<frameset><frame src="javascript:${JS}"></frameset>`],
  ['meta refresh javascript', `<meta http-equiv=refresh content="0;url=javascript:${JS}">`],
  ['meta refresh data', `<meta http-equiv=refresh content="0;url=data:text/html,<script>${JS}</script>">`],
  ['base href javascript', `<base href="javascript:${JS}//"><a href=x>x</a>`],
  ['link import', `<link rel=import href="data:text/html,<script>${JS}</script>">`],
  [
    'embed data svg',
    `<embed src="data:image/svg+xml,<svg onload='${JS}' xmlns='http://www.w3.org/2000/svg'/>">`,
  ],
  ['applet', `<applet code=x onerror=${JS}></applet>`],
  ['portal', `<portal src="javascript:${JS}"></portal>`],
  ['isindex action', `<isindex action="javascript:${JS}" type=image src=x>`],
  ['input type image formaction', `<input type=image src=x formaction="javascript:${JS}">`],
  ['button autofocus formaction', `<form><button autofocus formaction="javascript:${JS}">x</button></form>`],
  ['keygen autofocus', `<keygen autofocus onfocus=${JS}>`],
  [
    'svg animate values list',
    `<svg><a><animate attributeName=href values="https://a/;javascript:${JS}" /><text y=20>x</text></a></svg>`,
  ],
  ['img srcset javascript', `<img srcset="x 1x, javascript:${JS} 2x">`],
  ['style expression (legacy)', `<div style="width:expression(${JS})">x</div>`],
  ['style url javascript', `<div style="background:url(javascript:${JS})">x</div>`],
  ['style import', `<style>@import "javascript:${JS}";</style>`],
  ['svg style element', `<svg><style>@import "javascript:${JS}";</style></svg>`],
  ['template shadowroot', `<div><template shadowrootmode=open><img src=x onerror=${JS}></template></div>`],
  [
    'declarative shadow root script',
    `<div><template shadowrootmode=open><script>${JS}</script></template></div>`,
  ],
  ['custom element handler', `<x-y onfocus=${JS} tabindex=1 autofocus>x</x-y>`],
  [
    'dialog open handler',
    `<dialog open onclose=${JS}><form method=dialog><button autofocus>x</button></form></dialog>`,
  ],
  ['object param', `<object><param name=src value="javascript:${JS}"></object>`],
  ['a with ping', `<a href=https://example.com/ ping="javascript:${JS}">x</a>`],
  ['blockquote cite', `<blockquote cite="javascript:${JS}">x</blockquote>`],
  ['video poster javascript', `<video poster="javascript:${JS}"></video>`],
  ['table background', `<table background="javascript:${JS}"><td>x</td></table>`],
  ['svg feImage', `<svg><filter><feImage href="javascript:${JS}"/></filter></svg>`],
  ['math maction', `<math><maction actiontype=statusline xlink:href="javascript:${JS}">x</maction></math>`],
  ['double-encoded entity (stays text)', `<a href="&amp;#106;avascript:${JS}">x</a>`],
];

function urlVectors(): XssVector[] {
  const out: XssVector[] = [];
  for (const [carrier, markup] of URL_CARRIERS) {
    for (const [how, url] of SCRIPT_URLS)
      out.push({ name: `${carrier} ${how}`, html: markup.replace('URL', url) });
  }
  return out;
}

export const XSS_CORPUS: readonly XssVector[] = [
  ...SELF_FIRING.map(([name, html]) => ({ name, html })),
  ...DIFFERENTIALS.map(([name, html]) => ({ name, html })),
  ...urlVectors(),
];
