// The progress page: poll /api/progress and show each new feed being fetched and its stories arriving.
function describe(feed) {
  if (feed.error) return `error: ${feed.error}`;
  if (!feed.fetched) return "waiting to be fetched…";
  const stories = `${feed.stories} stor${feed.stories === 1 ? "y" : "ies"}`;
  return feed.extracting ? `${stories}, extracting ${feed.extracting} article${feed.extracting === 1 ? "" : "s"}…` : `${stories}, done`;
}

async function poll(list, summary, bar) {
  let payload;
  try {
    const response = await fetch(list.dataset.progress, { credentials: "same-origin" });
    payload = await response.json();
  } catch {
    setTimeout(() => poll(list, summary, bar), 3000);
    return;
  }
  let fetched = 0;
  for (const feed of payload.feeds) {
    const row = list.querySelector(`[data-feed="${feed.id}"]`);
    if (row) {
      row.querySelector(".feed-title").textContent = feed.title;
      row.querySelector(".state").textContent = describe(feed);
      row.classList.toggle("error", Boolean(feed.error));
      row.classList.toggle("done", feed.fetched && !feed.extracting);
    }
    fetched += feed.fetched ? 1 : 0;
  }
  const total = payload.feeds.length;
  bar.max = Math.max(total, 1);
  bar.value = fetched;
  summary.textContent = payload.summary; // worded by the server, which knows which feeds failed
  if (!payload.done) setTimeout(() => poll(list, summary, bar), 1000);
}

export function install() {
  const list = document.querySelector("[data-progress]");
  if (list) {
    poll(list, document.querySelector("[data-progress-summary]"), document.querySelector("[data-progress-bar]"));
  }
}
