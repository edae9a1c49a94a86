"""Largest-DOM-clump: the article is where story-like text clumps together in the DOM.

1. Invisible and hidden elements go; the rest of the text is grouped into blocks by the
   element that holds it (``blocks``).
2. Each block gets a value: prose (long, few links) counts for its size, link lists
   count against, short labels a little; prose inside furniture (nav, footer, share
   bars, comments... see ``cues``) counts for nothing, unless the furniture-named
   element wraps most of the page's prose and its largest clump.
3. Blocks are clumped by their parent, i.e. by their path in the DOM. A clump's value
   grows faster than its size, so many paragraphs side by side beat scattered teasers.
4. Every element's score is the value of the clumps below it, decayed at each branching
   level, so containers close to their paragraphs win.
5. The top-scoring element is narrowed to the child holding its largest clump while no
   other child (nor its own paragraphs) holds a comparable one (a box after the one that
   holds the headline, without a headline of its own, is no rival); then siblings holding a
   comparable clump are merged in, for stories split over several containers, or else
   the same place in copies of its page-builder row, or else a lead paragraph named as
   such beside it; or else the boxes of paragraphs just before and after it, up to three
   levels out and past pictures and ad slots, join it, with a lead paragraph named as such
   or the first paragraph under the story's headline. A chosen element that is one of
   three or more sections of one story (boxes of one tag, each opening with a subheading
   that links nowhere and holding prose) widens to the box that holds them all.

docs/extraction.md walks through it with the reasons and the numbers.
"""
from __future__ import annotations

from functools import cached_property

from lxml import etree

from ..article import ExtractionError
from ..blocks import PARAGRAPH_CHARS, Block, text_blocks
from ..clean import drop_hidden
from ..cues import STRONG, WEAK, describes_other, furniture_strength, lead_named
from ..tags import HEADING_TAGS as HEADINGS, INLINE_TAGS, INVISIBLE_TAGS

HEADING_TAGS = frozenset(HEADINGS)  # the shared table as a set: every block is looked up in it
LIST_TAGS = frozenset(("ul", "ol", "dl"))
# Parts of a story that can outweigh the prose around them: lists and quotes.
PART_TAGS = LIST_TAGS | {"blockquote"}
# Cost per character of furniture text, relative to one character of story text.
BOILERPLATE_COST = 0.5
# Each level between a clump and an ancestor keeps this share of the clump's value,
# so a container close to its paragraphs beats a distant one that also collects
# scattered teasers.
LEVEL_DECAY = 0.9
# A clump of this much prose counts half; see clump_value.
CLUMP_HALF = 200.0
# Share of the page's prose above which a furniture cue is taken for a wrapper's name.
STRONG_WRAPPER_SHARE = 0.8
WEAK_WRAPPER_SHARE = 0.5
# A sibling whose largest clump is at least this share of the chosen element's belongs
# with it: the chosen element is not narrowed past it, and it is merged in.
MERGE_SHARE = 0.3
# Two paragraphs' worth of prose directly in an element make it part of the story.
OWN_PROSE_CHARS = 2 * PARAGRAPH_CHARS
# How many levels above the chosen element to look for such siblings.
MERGE_LEVELS = 3
# A sibling of the chosen element's own kind (same tag, same first class name) needs
# only half that share: pages split one story body into repeated containers around an
# ad or a photo ("story-body story-body-1", "story-body story-body-2").
KIN_DISCOUNT = 0.5
# How far above the story's first paragraph the box may be that holds it and its headline.
HEADLINE_LEVELS = 7
# How far above the chosen element the copies of its page-builder row are looked for: a
# story's parts sit five or six levels below the box their copies share (the headline's
# reach; twelve levels found nothing more on the tuning halves).
TEMPLATE_LEVELS = 7
# How far above a paragraph a box around a picture makes it a caption.
CAPTION_LEVELS = 4
# Boxes of one kind, each under a linked heading, that make a page of posts; each under a
# heading that links nowhere, the sections of one story.
POSTS = 3
# How far above the chosen element the box may be that holds it as one of a story's sections.
SECTION_LEVELS = 4
SUBHEADING_TAGS = HEADING_TAGS - {"h1"}


def block_value(block: Block) -> float:
    """Positive for prose, negative for link lists and menus, near zero for short labels."""
    chars, links = block.chars, block.link_chars
    if block.element.tag in HEADING_TAGS:
        return 0.0
    if links * 2 > chars:
        return -BOILERPLATE_COST * chars
    prose = chars - 2 * links
    if chars >= PARAGRAPH_CHARS:
        return float(prose)
    return prose * 0.25


class _Skeleton:
    """The part of the page that holds text: every block and its ancestors, with their
    parents and depths, so values are carried up in one bottom-up sweep."""

    def __init__(self, elements, places: dict):
        """``places``: element -> (holder, linked, parent, depth) for every element and
        its ancestors, as ``text_blocks`` fills it."""
        parent: dict = {}
        for el in elements:
            node = el
            while node is not None and node not in parent:
                up = parent[node] = places[node][2]
                node = up
        self.parent = parent
        # Parents before children: ``places`` is filled so, and a sort by depth would cost
        # more. The sweeps add children to a parent in the same order either way except
        # for boxes holding only link text, whose negative values no sum carries.
        self.top_down = [node for node in places if node in parent]
        # Wrappers with a single child add no distance when values decay going up. Only
        # elements with a member below them are asked, and counting children is dear.
        uppers = set(parent.values())
        uppers.discard(None)
        branching = {node for node in uppers if len(node) > 1}
        # (element, parent, whether the parent branches), bottom-up: what every sweep reads.
        self.upward = [(node, up, up in branching) for node in reversed(self.top_down)
                       if (up := parent[node]) is not None]

    def sums(self, own: dict, decay: float = 1.0, carry_negative: bool = True) -> dict:
        """Each element's own value plus its children's sums, decayed at every branching
        ancestor (``decay`` 1 keeps plain sums); a negative sum stays where it is unless
        ``carry_negative``."""
        total = dict(own)
        for node, up, branches in self.upward:
            value = total.get(node)
            if value is not None:
                if value < 0 and not carry_negative:
                    value = 0.0
                total[up] = total.get(up, 0.0) + (value * decay if branches else value)
        return total

    def maxima(self, own: dict) -> dict:
        best = dict(own)
        for node, up, _ in self.upward:
            value = best.get(node)
            if value is not None and value > best.get(up, 0.0):
                best[up] = value
        return best

    def holding(self, own: dict, least: float) -> set:
        """Elements with a value of at least ``least`` at or below them: those whose
        ``maxima`` reach ``least``, found by walking up from the few that do."""
        found: set = set()
        parent = self.parent
        for node, value in own.items():
            if value >= least:
                while node is not None and node not in found:
                    found.add(node)
                    node = parent[node]
        return found

    def inside(self, test) -> set:
        """Elements that pass ``test`` or sit below one that does."""
        flagged: set = set()
        parent = self.parent
        for node in self.top_down:
            if parent[node] in flagged or (test(node) and node.tag not in ("body", "html")):
                flagged.add(node)
        return flagged


class Scores:
    """The page's text weighed: ``score`` (decayed value of the text below each element),
    ``biggest`` (the largest clump below each element) and furniture strengths."""

    def __init__(self, doc):
        places: dict = {}
        self.blocks = blocks = text_blocks(doc, places)
        if not blocks:
            raise ExtractionError("no text found")
        self.skeleton = skeleton = _Skeleton(blocks, places)
        self.furniture: dict = {}
        values = {el: block_value(block) for el, block in blocks.items()}
        undiscounted = dict(values)
        before = self._discount_furniture(values, blocks)
        if before and _top_clump(values, skeleton.parent) < MERGE_SHARE * before:
            # The names took the story with them: markup left open (a menu never closed)
            # nests the whole page inside a <nav> or a "menu". A browser still shows the
            # story, so the names are not believed.
            values = undiscounted
            # But a list of several items of prose is no menu left open: a comment thread
            # far longer than the post it follows is still comments.
            prose = skeleton.sums({el: value for el, value in values.items() if value > 0})
            threads = skeleton.inside(lambda n: n.tag in LIST_TAGS and self.furniture.get(n) == STRONG
                                      and sum(prose.get(item, 0.0) > 0 for item in n) >= POSTS)
            values = {el: (0.0 if value > 0 and el in threads else value) for el, value in values.items()}
        # (iterchildren filters in C; find would go through lxml's ElementPath, dearer.)
        self.line_boxes = line_boxes = {el for el in blocks
                                        if el.tag in LINE_BOXES and next(el.iterchildren("br"), None) is not None}
        clumps = {el: clump_value(value) for el, value in _pool(values, skeleton.parent, line_boxes).items()}
        # A link list counts against its own container, not against every box above it:
        # links inside a story (show notes, sources) must not sink it below one of its
        # paragraphs. The decay already keeps a container above many menus from winning.
        self.score = skeleton.sums(clumps, LEVEL_DECAY, carry_negative=False)
        # A block alone is a clump of one (a box of lines is one already).
        for el, value in values.items():
            if el not in line_boxes:
                self.score[el] = self.score.get(el, 0.0) + clump_value(value)
        self.values = values
        self.clumps = {el: value for el, value in clumps.items() if value > 0}
        self.biggest = skeleton.maxima(self.clumps)

    @cached_property
    def prose(self) -> dict:
        """Plain sums of prose below each element, for lists inside a story (``best``);
        few pages ask."""
        return self.skeleton.sums(_pool({el: v for el, v in self.values.items() if v > 0}, self.skeleton.parent,
                                        self.line_boxes))

    def _strength(self, node) -> int:
        if node not in self.furniture:
            self.furniture[node] = furniture_strength(node)
        return self.furniture[node]

    def _discount_furniture(self, values: dict, blocks: dict) -> float:
        """Prose inside furniture counts for nothing. (Not against: a story container
        that also holds a big gallery or a comment thread must not sink below one of
        its own paragraphs; the decay up the tree already keeps furniture out.)

        Returns the page's largest clump of prose before the discount, or 0 when nothing
        was discounted."""
        # A cue on an element that wraps most of the page's prose (in the blocks below
        # it, not its own text) and the page's largest clump is a wrapper's misleading
        # name ("page-ad-margins", "has-sidebar", "body_overlay"), not furniture. A
        # gallery or a comment thread may hold much prose, but not the story's clump.
        positive = {el: value for el, value in values.items() if value > 0}
        pooled = _pool(positive, self.skeleton.parent)
        prose = self.skeleton.sums(pooled)
        top_before = max(pooled.values(), default=0.0)
        cues = {}
        for n in self.skeleton.top_down:
            if (n in positive or n in prose) and n.tag not in ("body", "html"):
                cue = self.furniture[n] = furniture_strength(n)
                if cue:
                    cues[n] = cue
        discounted = False
        for strength, share in ((STRONG, STRONG_WRAPPER_SHARE), (WEAK, WEAK_WRAPPER_SHARE)):
            cued = [n for n, cue in cues.items() if cue == strength]
            if not cued:
                continue
            if discounted:
                # The next cue's wrapper test weighs the prose that is left.
                pooled = _pool({el: value for el, value in values.items() if value > 0}, self.skeleton.parent)
            top_clump = max(pooled.values(), default=0.0)
            page_prose = sum(pooled.values())
            large = {n for n in cued if prose.get(n, 0.0) >= share * page_prose}
            # Only the few large ones are asked whether they hold the largest clump.
            wrappers = large if top_clump <= 0 else large & self.skeleton.holding(pooled, top_clump)
            roots = {n for n in cued if n not in wrappers}
            if not roots:
                continue
            flagged = self.skeleton.inside(roots.__contains__)
            for el, value in values.items():
                if value > 0 and el in flagged:
                    values[el] = 0.0
            discounted = True
        return top_before if discounted else 0.0

    def best(self):
        """The top-scoring element, narrowed to the child that holds its largest clump
        while no other child holds a comparable one: a wrapper that only adds teasers
        or a comment or two to the story is not worth its extra text."""
        top = max(self.score, key=self.score.__getitem__)
        if self.score[top] <= 0:
            return None
        node = top
        own_prose = clump_value(OWN_PROSE_CHARS)
        while True:
            kids = [c for c in node if self.biggest.get(c, 0.0) > 0]
            if not kids:
                return node
            lead = max(kids, key=self.biggest.__getitem__)
            wanted = MERGE_SHARE * self.biggest[lead]
            # Stop where another child matches the lead, or where the node holds prose
            # of its own: a story's first paragraphs often sit beside its main container,
            # and a story written as bare text between <br> tags is the node's own text,
            # beside a captioned photo or a dateline in a child.
            own = self.clumps.get(node, 0.0) + clump_value(max(self.values.get(node, 0.0), 0.0))
            posts = _posts([c for c in kids if self.biggest[c] >= wanted])
            if posts and own < min(wanted, own_prose):
                # A page of several posts: the first is the story the page is about.
                node = posts[0]
                continue
            if self.biggest[lead] < max(self.biggest[node], own) or own >= min(wanted, own_prose) \
                    or _rivals(kids, lead, [c for c in kids if c is not lead and self.biggest[c] >= wanted]) \
                    or self._list_in_story(lead, node):
                return node
            node = lead

    def sections_around(self, el):
        """The box that holds ``el`` as one section of a story told in sections, up to
        ``SECTION_LEVELS`` above it: ``el``, or a box around it, opens with a subheading that
        links nowhere, and beside it are boxes of its tag that do too, at least ``POSTS`` in
        all, each holding prose (some sections put the heading in a box of its own, some
        not). The largest section is the largest clump, and the decay up the tree keeps it
        above the box of all of them; the others and the story's introduction before them
        are the same story. (Sections whose headings link away are posts.) ``el`` itself
        when there is no such box."""
        node = el
        parent = self.skeleton.parent
        for _ in range(SECTION_LEVELS):
            up = parent.get(node)
            if up is None or up.tag == "body" or self._strength(up):
                break
            if self._opens_with_subheading(node):
                sections = [c for c in up if c is node or (
                    c in parent and c.tag == node.tag and self._opens_with_subheading(c))]
                # Every one holds prose: boxes of links or teasers under headings make a
                # page of modules (a reading list, a teaser grid), not one story.
                if len(sections) >= POSTS and all(self.biggest.get(c, 0.0) > 0 for c in sections):
                    return up
            node = up
        return el

    def _opens_with_subheading(self, box) -> bool:
        """The first block in ``box`` is a subheading (``h2``–``h6``) without links, and no
        heading in ``box`` links to another page."""
        first = next((holder for holder in box.iter() if holder in self.blocks), None)
        return first is not None and first.tag in SUBHEADING_TAGS and not self.blocks[first].link_chars \
            and not _linked_heading(box)

    def story_around(self, el):
        """For a chosen list or quote: the nearest box around it, up to ``MERGE_LEVELS`` up
        and not furniture, that also holds a paragraph of prose beside it. A recipe's
        steps, a story's bullet points or a long quoted passage outweigh the prose around
        them, which is the same story (the introduction, the ingredients, the comment on
        the quote); a list alone on its page stays alone."""
        el = _outermost_list(el)
        inside = self.prose.get(el, 0.0)
        node = el
        for _ in range(MERGE_LEVELS):
            node = self.skeleton.parent.get(node)
            if node is None or node.tag == "body" or self._strength(node):
                break
            if self.prose.get(node, 0.0) - inside >= PARAGRAPH_CHARS:
                return node
        return el

    def _list_in_story(self, lead, node) -> bool:
        """``lead`` is a list (or a box holding only one) and ``node`` holds prose beside it worth a share of it: a list
        of facts in the middle of a story whose paragraphs sit in boxes of their own. The
        list is part of the story, not the story."""
        inner = lead
        while inner.tag not in LIST_TAGS and len(inner) == 1:  # a list in a box of its own
            inner = inner[0]
        if inner.tag not in LIST_TAGS:
            return False
        inside = self.prose.get(lead, 0.0)
        return self.prose.get(node, 0.0) - inside >= MERGE_SHARE * inside

    def blocks_below(self, el) -> dict | None:
        """The blocks inside ``el``, in the order ``text_blocks(el)`` gives them; None for an
        inline element, whose text the page's blocks file under an ancestor."""
        if el.tag in INLINE_TAGS:
            return None
        below = {el}
        parent = self.skeleton.parent
        for node in self.skeleton.top_down:
            if parent[node] in below:
                below.add(node)
        return {holder: block for holder, block in self.blocks.items() if holder in below}

    def twins(self, el) -> list:
        """The same place as ``el`` in boxes of an ancestor's kind beside that ancestor, up to
        ``TEMPLATE_LEVELS`` up, where it holds a paragraph of unlinked prose: a story whose
        parts each sit in a copy of one page-builder row (``section.row > div.column >
        div.story-text``, again and again) is too far apart for the merge of siblings. A
        box with a headline of its own is another story, and posts are not one story."""
        steps = []
        node = el
        for _ in range(TEMPLATE_LEVELS):
            up = node.getparent()
            if up is None or up.tag == "body" or up.getparent() is None:
                return []
            steps.insert(0, _place(node))
            node = up
            kind = _kind(node)
            if kind is None:
                continue
            found = {}
            for box in node.getparent():
                if box is not node and _kind(box) == kind and (twin := _follow(box, steps)) is not None \
                        and any(self._lead_paragraph(m) for m in twin.iter() if m in self.blocks) \
                        and not self._strength(box) and not _holds_headline(box):
                    found[box] = twin
            if found:
                return [] if _posts([node, *found]) else list(found.values())
        return []

    def leads(self, el) -> list:
        """Earlier siblings of ``el`` that hold a paragraph of prose and are named as the
        story's lead (standfirst, perex, dek...), or hold two paragraphs' worth of prose
        under any name: the summary or first paragraphs printed above the body's box."""
        return [s for s in el.itersiblings(preceding=True) if self._prose(s) >= PARAGRAPH_CHARS
                and (lead_named(s) or self._prose(s) >= OWN_PROSE_CHARS) and not self._strength(s)]

    def outer_lead(self, el):
        """The story's lead printed in a box of its own further out: the nearest paragraph
        of prose before ``el`` in page order, when it (or a box around it that does not
        also hold ``el``) is named as a lead (``p.lead`` in the article's header, an
        ``intro`` box above the body's columns). Headings, bylines, dates and furniture
        before it are passed over; any other paragraph stops the search."""
        first = next((node for node in el.iter() if node in self.blocks), None)
        if first is None or el.getparent() is None:
            return None
        holders = list(self.blocks)
        around = set(el.iterancestors())
        for holder in reversed(holders[:holders.index(first)]):
            block = self.blocks[holder]
            if holder.tag in HEADING_TAGS or block.chars < PARAGRAPH_CHARS or self.values[holder] <= 0:
                continue
            box = holder
            while box is not None and box not in around:
                if lead_named(box) and not self._strength(box):
                    return box
                box = box.getparent()
            return None
        return None

    def headline_lead(self, el):
        """The story's lead printed between its headline and ``el``, whatever its name:
        the first paragraph of unlinked prose after the last ``<h1>`` before ``el``, in a
        box that holds both within ``HEADLINE_LEVELS`` of the story's first paragraph.
        Bylines, dates, links and furniture are passed over, and so are captions, which
        often stand between a lead and the body."""
        first = next((node for node in el.iter() if node in self.blocks), None)
        if first is None:
            return None
        top = first
        for _ in range(HEADLINE_LEVELS):
            up = top.getparent()
            if up is None or up.tag == "body":
                break
            top = up
        # The headline first, through a walk lxml filters by tag, so that only the box
        # holding the headline and the story is walked element by element.
        headline = None
        for member in top.iter("h1", first.tag):
            if member is first:
                break
            if member.tag == "h1":
                headline = member
        if headline is None:
            return None
        around = {first, *first.iterancestors()}
        common = next(box for box in headline.iterancestors() if box in around)
        after = False
        for member in common.iter():
            if member is first:
                return None
            if member is headline:
                after = True
            elif after and member not in around and self._lead_paragraph(member) and not _under_picture(member):
                return member
        return None

    def _lead_paragraph(self, el) -> bool:
        """A paragraph of prose without links that is not a heading, furniture or a caption."""
        block = self.blocks.get(el)
        if block is None or el.tag in HEADING_TAGS or self.values[el] <= 0 \
                or block.link_chars or block.chars < PARAGRAPH_CHARS:
            return False
        box = el
        for _ in range(CAPTION_LEVELS):
            if box is None:
                break
            if box.tag in ("figure", "figcaption") or describes_other(box):
                return False
            box = box.getparent()
        return True

    def story_parts(self, el) -> list:
        """The rest of the story printed beside ``el`` in boxes of their own, up to
        ``MERGE_LEVELS`` above it: going out from ``el``, the boxes before and after it at
        each level that hold paragraphs of prose of the tags ``el``'s paragraphs are,
        nearest first, each way up to the first box that is anything else. What holds no
        paragraph (a picture, a caption, a date, an empty ad slot) is passed over. The
        first paragraphs of a story often sit in a box of their own above a photo, and the
        rest, the larger clump, further in; or the story goes on in a box after the photo
        or an ad, too short to count as a clump beside the body."""
        tags = None  # read from the story only when a box may join, which few pages have
        found = []
        open_ways = [True, True]  # before, after
        node = el
        for _ in range(MERGE_LEVELS):
            for way, preceding in enumerate((True, False)):
                if not open_ways[way]:
                    continue
                for sibling in node.itersiblings(preceding=preceding):
                    part = self._part(sibling)
                    if part:
                        tags = self._paragraph_tags(el) if tags is None else tags
                        part = self._paragraph_tags(sibling) <= tags
                    if part is False:
                        open_ways[way] = False
                        break
                    if part:
                        found.append(sibling)
            node = node.getparent()
            if not any(open_ways) or node is None or node.tag == "body" or self._strength(node):
                break
        return found

    def _part(self, box) -> bool | None:
        """True when ``box`` may be a part of the story: two paragraphs or more of unlinked
        prose (a caption or a byline is one) beside short lines only; None
        when it holds no paragraph and no heading or link line, or holds a picture (a
        caption, a date, an empty ad slot: passed over); False for anything else, which ends
        the story on that side: a heading, links, furniture, other paragraphs."""
        if not isinstance(box.tag, str) or box not in self.skeleton.parent or _pictured(box):
            return None
        paragraphs, prose = 0, 0
        for holder in box.iter():
            block = self.blocks.get(holder)
            if block is None:
                continue
            if holder.tag in HEADING_TAGS or self.values[holder] < 0:
                return False  # read no further: most boxes that end the walk end it early
            if block.chars >= PARAGRAPH_CHARS:
                if not self._paragraph(holder):
                    return False
                paragraphs += 1
                prose += block.chars - block.link_chars
        if not paragraphs:
            return None
        return paragraphs > 1 and prose >= OWN_PROSE_CHARS and not self._strength(box)

    def _paragraph_tags(self, box) -> set:
        """The tags of the paragraphs of prose in ``box``: a story's are alike (``<p>``)."""
        return {holder.tag for holder in box.iter() if holder in self.blocks and self._paragraph(holder)}

    def _paragraph(self, holder) -> bool:
        """A block of prose: a paragraph's length, most of it unlinked, not a heading."""
        block = self.blocks.get(holder)
        return block is not None and block.chars >= PARAGRAPH_CHARS and self.values[holder] > 0 \
            and holder.tag not in HEADING_TAGS

    def _prose(self, el) -> int:
        """Unlinked text of ``el``'s own block and of its children's."""
        found = (self.blocks.get(child) for child in (el, *el))
        return sum(block.chars - block.link_chars for block in found if block is not None)

    def merged_siblings(self, el) -> list:
        """Siblings of ``el`` that hold a clump of prose comparable to its own: the
        rest of a story split into several containers (and, once one of them is of ``el``'s
        own kind, every box of that kind holding a paragraph)."""
        parent = self.skeleton.parent.get(el)
        if parent is None:
            return []
        wanted = MERGE_SHARE * self.biggest.get(el, 0.0)
        kind = _kind(el)

        def share(sibling) -> float:
            return wanted * KIN_DISCOUNT if kind and _kind(sibling) == kind else wanted

        found = [s for s in parent if s is not el and self.score.get(s, 0.0) > 0
                 and self.biggest.get(s, 0.0) >= share(s) > 0 and not self._strength(s)]
        if kind and any(_kind(s) == kind for s in found):
            # The story is split into boxes of one kind, so each box of that kind holding a
            # paragraph is a part of it, however short (an interview's first questions).
            found = [s for s in parent if s is not el and not self._strength(s) and (s in found or (
                _kind(s) == kind and self.prose.get(s, 0.0) >= PARAGRAPH_CHARS))]
        # The other posts of a page of posts are not the rest of this one.
        found = [s for s in found if _kind(s) != kind] if _posts([el, *(s for s in found if _kind(s) == kind)]) else found
        # Nor is a thread of comments or a rail of teasers after it, nor a box holding a form
        # (a comment section with its reply form, a sign-up box): a story's parts hold none,
        # and without class names nothing else marks them.
        after = set(el.itersiblings()) if found else set()
        return [s for s in found if s not in after or not (self._thread(s) or _holds_form(s))]

    def _thread(self, box) -> bool:
        """Whether ``box`` holds, in itself or in a child, a run of at least ``POSTS`` boxes of
        one shape, each opening with a short line that is no section heading: the author and
        date over each comment of a thread, the linked headline over each teaser of a rail.
        A story's parts open with prose or with a heading of their own."""
        for holder in (box, *box):
            items = [item for item in holder if isinstance(item.tag, str) and item in self.skeleton.parent]
            if len(items) >= POSTS and len({_shape(item) for item in items}) == 1 \
                    and all(self._opens_with_a_label(item) for item in items):
                return True
        return False

    def _opens_with_a_label(self, item) -> bool:
        """The first block in ``item`` is a short line and no unlinked heading."""
        first = next((node for node in item.iter() if node in self.blocks), None)
        if first is None:
            return False
        block = self.blocks[first]
        return block.chars < PARAGRAPH_CHARS and (first.tag not in HEADING_TAGS or block.link_chars > 0)


def _rivals(kids: list, lead, others: list) -> list:
    """Of ``others``, the children that rival ``lead`` for the story. When ``lead`` holds the
    page's headline, a box after it without a headline of its own is what follows a story
    (comments, a dialog, a rail of teasers), not another story: without class names
    nothing else tells them apart. When ``lead`` does not hold it, a box after ``lead``
    that holds a form (a sign-up or paywall box, a comment section) is no story either. A
    part of the story split off after it is merged back with the siblings."""
    if not others:
        return others
    after = kids.index(lead)
    if not _holds_headline(lead):
        return [c for c in others if kids.index(c) < after or not _holds_form(c)]
    return [c for c in others if kids.index(c) < after or _holds_headline(c)]


def _pictured(box) -> bool:
    """Whether ``box`` holds a picture: its text is the picture's caption or credit."""
    return next(box.iter("img", "picture", "figure", "video"), None) is not None


def _under_picture(el) -> bool:
    """Whether ``el`` follows a picture in the first box around it, up to ``CAPTION_LEVELS``
    up, that holds one, and that box holds no headline: a caption, where no figure or name
    says so (a lead beside the lead picture in the article's header holds the headline)."""
    box = el
    for _ in range(CAPTION_LEVELS):
        box = box.getparent()
        if box is None:
            return False
        picture = next(box.iter("img", "picture", "video"), None)
        if picture is not None:
            return not _holds_headline(box) and _page_order(picture) < _page_order(el)
    return False


def _holds_form(box) -> bool:
    return next(box.iter("form"), None) is not None


def _holds_headline(box) -> bool:
    return next(box.iter("h1"), None) is not None


def _shape(el) -> tuple:
    """Tag and first child's tag: the same kind of box, where no class names say so."""
    return el.tag, next((child.tag for child in el if isinstance(child.tag, str)), None)


def _posts(boxes: list) -> list:
    """``boxes`` when they are a run of posts: at least ``POSTS`` of them, all of one kind,
    each under a heading that links to the post (a blog's or a forum's list of entries).
    The sections of one long story have headings too, but those do not link away."""
    if len(boxes) < POSTS or len({_kind(box) for box in boxes}) != 1 or _kind(boxes[0]) is None:
        return []
    return boxes if all(_linked_heading(box) for box in boxes) else []


def _linked_heading(box) -> bool:
    """A heading that links to another page (not to an anchor on this one)."""
    return any(not (a.get("href") or "#").lstrip().startswith("#") for h in box.iter(*HEADING_TAGS) for a in h.iter("a"))


def _place(el) -> tuple:
    """Tag and first class name, or the tag alone: a step in a page builder's template."""
    return _kind(el) or (el.tag, None)


def _follow(box, steps: list):
    """The first element below ``box`` reached through children at the ``_place`` of each
    step in turn; None when the box's template differs."""
    if not steps:
        return box
    for child in box:
        if _place(child) == steps[0] and (found := _follow(child, steps[1:])) is not None:
            return found
    return None


def _outermost_list(el):
    """The list that ``el`` is nested in, item by item, up to the outermost: a sub-list (the
    steps under one point of an agenda) is part of its parent list, not a story of its own."""
    while (item := el.getparent()) is not None and item.tag in ("li", "dd") \
            and (outer := item.getparent()) is not None and outer.tag in LIST_TAGS:
        el = outer
    return el


def _kind(el) -> tuple | None:
    """Tag and first class name: what a page's stylesheet treats as the same kind of box."""
    names = (el.get("class") or "").split()
    return (el.tag, names[0]) if names else None


def clump_value(value: float) -> float:
    """Large clumps count in full, small ones less: a story is many paragraphs side by
    side, while teaser lists scatter one short description per container."""
    return value * value / (value + CLUMP_HALF) if value > 0 else value


def _top_clump(values: dict, parent: dict) -> float:
    """The largest clump of prose."""
    return max(_pool({el: value for el, value in values.items() if value > 0}, parent).values(), default=0.0)


# Boxes whose own text, broken into lines by <br>, is a run of paragraphs by itself.
LINE_BOXES = frozenset(("div", "td", "th", "section", "article"))


def _pool(values: dict, parent: dict, line_boxes: set | frozenset = frozenset()) -> dict:
    """Sum block values per parent element: the clumps. A box whose own text runs over
    line breaks is a clump by itself, as its lines would be if each were a <p>: story
    text written between <br> tags is the text of its <div> or <td>, and pooled with its
    siblings it would join a layout row's other columns, or a column of one-line boxes
    would pool into one clump that no box of <p>s would make."""
    pooled: dict = {}
    for el, value in values.items():
        up = el if el in line_boxes else parent[el]
        if up is not None:
            pooled[up] = pooled.get(up, 0.0) + value
    return pooled


def find_article(doc):
    return find_article_and_blocks(doc)[0]


def find_article_and_blocks(doc):
    """The article element and its text blocks, for cleaning to reuse (None where the
    page's blocks do not carry over: a new wrapper, or the whole body)."""
    etree.strip_elements(doc, *INVISIBLE_TAGS, with_tail=False)
    drop_hidden(doc)
    scores = Scores(doc)
    best = scores.best()
    if best is not None and best.tag in PART_TAGS:
        best = scores.story_around(best)
    if best is not None:
        best = scores.sections_around(best)
    if best is None:
        # Nothing reads like a story (a page of links, a stub): the whole body is the
        # honest answer; cleaning then decides what survives.
        body = doc.find("body")
        return (body if body is not None else doc), None
    node = best
    for _ in range(MERGE_LEVELS):
        siblings = scores.merged_siblings(node)
        if siblings:
            return _wrap(node, siblings), None
        node = scores.skeleton.parent.get(node)
        if node is None or node.tag == "body":
            break
    # Parts of the story in copies of one template further apart than siblings.
    twins = scores.twins(best)
    if twins:
        return _gather(best, twins), None
    leads = scores.leads(best)
    if leads:
        return _wrap(best, leads), None
    # The story's first or last paragraphs in boxes of their own beside it, and its lead.
    extras = scores.story_parts(best)
    lead = scores.outer_lead(best)
    if lead is None:
        lead = scores.headline_lead(best)
    if lead is not None:
        extras = [part for part in extras if lead not in part.iterancestors()]
        if not any(part is lead or part in lead.iterancestors() for part in extras):
            extras.append(lead)
    if extras:
        return _gather(best, extras), None
    return best, scores.blocks_below(best)


def _wrap(node, siblings: list):
    """A new container holding ``node`` and its merged siblings in page order."""
    parent = node.getparent()
    keep = {node, *siblings}
    members = [c for c in parent if c in keep]
    wrapper = parent.makeelement("div", {})
    parent.insert(parent.index(members[0]), wrapper)
    for child in members:
        wrapper.append(child)
    return wrapper


def _gather(node, twins: list):
    """A new container, in ``node``'s place, holding ``node`` and the parts of its story
    found elsewhere on the page (its twins, its lead) in page order."""
    members = sorted([node, *twins], key=_page_order)
    wrapper = node.makeelement("div", {})
    node.addprevious(wrapper)
    for member in members:
        member.tail = None
        wrapper.append(member)
    return wrapper


def _page_order(el) -> list:
    """A key that sorts elements in page order: the place of each box on the way down to
    ``el`` among its siblings (no walk over the page for a few elements)."""
    path = []
    while (up := el.getparent()) is not None:
        path.append(up.index(el))
        el = up
    return path[::-1]
