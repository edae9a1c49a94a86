// Infinite scroll: when the "More stories" link comes into view, fetch the next page's items in place.
// Without JavaScript the link is an ordinary link to the next page.
async function loadMore(link, observer) {
  observer.unobserve(link);
  const row = link.closest("li");
  link.textContent = "Loading…";
  const url = new URL(link.href);
  url.searchParams.set("partial", "1");
  try {
    const response = await fetch(url, { credentials: "same-origin" });
    if (!response.ok) throw new Error(String(response.status));
    const doc = new DOMParser().parseFromString(`<ol>${await response.text()}</ol>`, "text/html");
    const list = row.parentElement;
    row.remove();
    list.append(...doc.querySelector("ol").children);
    watch(list, observer);
  } catch (error) {
    link.textContent = "More stories (loading failed — try again)";
    observer.observe(link);
  }
}

function watch(list, observer) {
  const link = list.querySelector("[data-more]");
  if (link) observer.observe(link);
}

export function install() {
  const list = document.querySelector("[data-entries]");
  if (!list || !("IntersectionObserver" in window)) return;
  const observer = new IntersectionObserver((seen) => {
    for (const item of seen) if (item.isIntersecting) loadMore(item.target, observer);
  }, { rootMargin: "600px" });
  watch(list, observer);
}
