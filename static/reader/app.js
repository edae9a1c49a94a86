// The reader's page script: progressive enhancement of server-rendered pages, no build step.
import * as actions from "./js/actions.js";
import * as keys from "./js/keys.js";
import * as progress from "./js/progress.js";
import * as reading from "./js/reading.js";
import * as scroll from "./js/scroll.js";
import * as signals from "./js/signals.js";

actions.install();
keys.install();
scroll.install();
progress.install();
reading.install();
signals.install();
document.documentElement.dataset.js = "ready"; // the page is enhanced (tests wait for this)
