"""The Google Reader API, as FreshRSS and Miniflux serve it, for sync apps (NetNewsWire, Reeder, FeedMe, Read You,
FocusReader...): docs/api.md has the contract. An app signs in with the user's API password (not the login
password), then carries `Authorization: GoogleLogin auth=<token>` on every call and the edit token `T` on POSTs.
Our ranked order reaches apps as the virtual label `user/-/label/Recommended` and the sort `r=a`."""
