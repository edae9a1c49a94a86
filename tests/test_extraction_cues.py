"""What class, id, role and tag names say about an element."""
import lxml.html
import pytest

from extraction.cues import NOT_FURNITURE, STRONG, WEAK, furniture_strength


def strength(html):
    return furniture_strength(lxml.html.fragment_fromstring(html))


@pytest.mark.parametrize("html, expected", [
    ("<nav>x</nav>", STRONG),
    ("<div class='comments-area'>x</div>", STRONG),
    ("<div id='cookie-consent'>x</div>", STRONG),
    ("<div class='article-overlay'>x</div>", WEAK),  # a story container with a state class
    ("<div class='ad-slot'>x</div>", WEAK),
    ("<div class='l-sidebar-fixed'>x</div>", WEAK),
    ("<form>x</form>", WEAK),
    ("<div class='header shadow'>x</div>", NOT_FURNITURE),  # "ad" only as a whole word
    ("<div class='Mstart(137px)--modalMinWidth'>x</div>", NOT_FURNITURE),  # no camelCase split
    ("<div id='sharing-with-a-single-developer'>x</div>", NOT_FURNITURE),  # a heading's slug
    ("<blockquote class='twitter-tweet'>x</blockquote>", NOT_FURNITURE),  # an embedded post
    ("<div class='social-media-embed'><blockquote>post</blockquote></div>", NOT_FURNITURE),
    ("<div class='social-links'><a href='/'>x</a></div>", WEAK),
    ("<div class='story-body'>x</div>", NOT_FURNITURE),
])
def test_strength(html, expected):
    assert strength(html) == expected
