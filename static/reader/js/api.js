// JSON calls to the reader's API with the session cookie and the CSRF token from the page.
const token = () => document.querySelector('meta[name="csrf-token"]')?.content ?? "";

export async function postJSON(url, data = {}) {
  const response = await fetch(url, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRFToken": token(), Accept: "application/json" },
    body: JSON.stringify(data),
  });
  let payload = {};
  try {
    payload = await response.json();
  } catch {
    // an HTML error page: fall through to the generic message
  }
  if (!response.ok) {
    throw new Error(payload.error?.message ?? `The server answered ${response.status}`);
  }
  return payload;
}
