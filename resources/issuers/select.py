#!/usr/bin/python3
"""Makes issuers.json, the app's offline issuer icons, from an unpacked
simple-icons npm package (CC0 1.0; `npm pack simple-icons@VERSION`, then
`tar xzf simple-icons-VERSION.tgz`):

    resources/issuers/select.py PACKAGE_DIR > resources/issuers/issuers.json

Only the services below, and of them only the icons the package releases
under its own CC0 licence (an icon with a "license" field of its own is
left out). For each: the title, the slug, the brand colour, the SVG path
on the package's 24 x 24 grid, and the names and domains it is matched by
(its title, its aliases, and the domains listed here).
"""

import json
import os
import re
import sys

# slug: extra names and domains people's otpauth issuers use for it.
SERVICES = {
    "github": ["github.com"], "gitlab": ["gitlab.com"], "google": ["google.com", "accounts.google.com"],
    "gmail": [], "googlecloud": ["cloud.google.com"], "apple": ["apple.com", "icloud", "apple id"],
    "dropbox": ["dropbox.com"], "facebook": ["facebook.com", "meta"], "instagram": ["instagram.com"],
    "x": ["twitter", "twitter.com", "x.com"], "discord": ["discord.com", "discordapp.com"],
    "reddit": ["reddit.com"], "twitch": ["twitch.tv"], "steam": ["steampowered.com", "steamcommunity.com"],
    "epicgames": ["epicgames.com", "epic games"], "paypal": ["paypal.com"], "stripe": ["stripe.com"],
    "coinbase": ["coinbase.com"], "binance": ["binance.com"], "bitwarden": ["bitwarden.com"],
    "1password": ["1password.com"], "lastpass": ["lastpass.com"], "proton": ["proton.me"],
    "protonmail": ["protonmail.com", "proton mail"], "nextcloud": [], "mastodon": [],
    "cloudflare": ["cloudflare.com"], "digitalocean": ["digitalocean.com"], "hetzner": ["hetzner.com"],
    "ovh": ["ovh.com", "ovhcloud"], "npm": ["npmjs.com"], "pypi": ["pypi.org"],
    "docker": ["docker.com", "docker hub"], "atlassian": ["atlassian.com"], "jira": [],
    "bitbucket": ["bitbucket.org"], "trello": ["trello.com"], "notion": ["notion.so"],
    "figma": ["figma.com"], "zoom": ["zoom.us"], "box": ["box.com"], "evernote": ["evernote.com"],
    "wordpress": ["wordpress.com"], "tumblr": ["tumblr.com"], "snapchat": ["snapchat.com"],
    "kickstarter": ["kickstarter.com"], "patreon": ["patreon.com"], "shopify": ["shopify.com"],
    "okta": ["okta.com"], "auth0": ["auth0.com"], "namecheap": ["namecheap.com"],
    "godaddy": ["godaddy.com"], "porkbun": ["porkbun.com"], "backblaze": ["backblaze.com"],
    "synology": ["synology.com"], "ubiquiti": ["ui.com", "unifi"], "tailscale": ["tailscale.com"],
    "zoho": ["zoho.com"], "hackthebox": ["hackthebox.com"], "ea": ["ea.com", "electronic arts"],
    "ubisoft": ["ubisoft.com"], "battledotnet": ["battle.net", "blizzard"],
    "playstation": ["playstation.com", "psn", "sony"], "robinhood": ["robinhood.com"],
    "revolut": ["revolut.com"], "wise": ["wise.com", "transferwise"], "sentry": ["sentry.io"],
    "vercel": ["vercel.com"], "netlify": ["netlify.com"], "firebase": [], "mailchimp": ["mailchimp.com"],
    "matrix": ["matrix.org"], "element": ["element.io"], "signal": ["signal.org"],
    "telegram": ["telegram.org"], "whatsapp": ["whatsapp.com"], "wikipedia": ["wikipedia.org", "wikimedia"],
    "mozilla": ["mozilla.org", "firefox accounts"], "firefox": [], "keeper": ["keepersecurity.com"],
    "dashlane": ["dashlane.com"], "akamai": ["akamai.com"], "hackerone": ["hackerone.com"],
    "bugcrowd": ["bugcrowd.com"], "gandi": ["gandi.net"], "mega": ["mega.nz", "mega.io"],
    "ionos": ["ionos.com", "1&1"], "mailbox": ["mailbox.org"], "disroot": ["disroot.org"],
    "gitea": [], "launchpad": ["launchpad.net"], "ubuntu": ["ubuntu.com", "ubuntu one"],
    "archlinux": ["archlinux.org"], "kde": ["kde.org"], "gnome": ["gnome.org"],
    "opensuse": ["opensuse.org"], "nvidia": ["nvidia.com"], "amd": ["amd.com"], "intel": ["intel.com"],
    "tiktok": ["tiktok.com"], "pinterest": ["pinterest.com"], "quora": ["quora.com"],
    "medium": ["medium.com"], "substack": ["substack.com"], "vimeo": ["vimeo.com"],
    "youtube": ["youtube.com"], "spotify": ["spotify.com"], "deezer": ["deezer.com"],
    "soundcloud": ["soundcloud.com"], "bandcamp": ["bandcamp.com"], "airbnb": ["airbnb.com"],
    "uber": ["uber.com"], "lyft": ["lyft.com"], "ebay": ["ebay.com"], "etsy": ["etsy.com"],
    "aliexpress": ["aliexpress.com"], "samsung": ["samsung.com", "samsung account"],
    "xiaomi": ["mi.com", "mi account"], "huawei": ["huawei.com"], "lenovo": ["lenovo.com"],
    "dell": ["dell.com"], "hp": ["hp.com"], "cisco": ["cisco.com"], "vmware": ["vmware.com"],
    "jetbrains": ["jetbrains.com"], "unity": ["unity.com", "unity3d"], "unrealengine": [],
    "itchdotio": ["itch.io"], "humblebundle": ["humblebundle.com"], "kofi": ["ko-fi.com"],
    "opencollective": ["opencollective.com"], "buymeacoffee": ["buymeacoffee.com"],
    "teamviewer": ["teamviewer.com"], "anydesk": ["anydesk.com"], "logmein": ["logmein.com"],
    "lichess": ["lichess.org"], "chessdotcom": ["chess.com"], "duolingo": ["duolingo.com"],
    "coursera": ["coursera.org"], "udemy": ["udemy.com"], "edx": ["edx.org"],
    "khanacademy": ["khanacademy.org"], "anthropic": ["anthropic.com"],
    "huggingface": ["huggingface.co"], "kaggle": ["kaggle.com"], "circleci": ["circleci.com"],
    "travisci": ["travis-ci.com"], "terraform": [], "hashicorp": ["hashicorp.com"],
    "grafana": ["grafana.com"], "datadog": ["datadoghq.com"], "newrelic": ["newrelic.com"],
    "pagerduty": ["pagerduty.com"], "snyk": ["snyk.io"], "supabase": ["supabase.com"],
    "planetscale": ["planetscale.com"], "mongodb": ["mongodb.com"], "redis": ["redis.io"],
    "elastic": ["elastic.co"], "steamdeck": [], "gog": [], "unraid": [], "proxmox": [],
    "fastly": [], "netflix": ["netflix.com"], "hulu": [], "linkedin": [], "slack": [],
}

PATH = re.compile(r'<path d="([^"]+)"')


def main():
    package = sys.argv[1]
    with open(os.path.join(package, "package.json"), encoding="utf-8") as file:
        version = json.load(file)["version"]
    with open(os.path.join(package, "data", "simple-icons.json"), encoding="utf-8") as file:
        icons = {icon["slug"]: icon for icon in json.load(file)}
    chosen = []
    for slug, extra in SERVICES.items():
        icon = icons.get(slug)
        if icon is None or "license" in icon:
            continue
        with open(os.path.join(package, "icons", slug + ".svg"), encoding="utf-8") as file:
            match = PATH.search(file.read())
        if not match:
            continue
        aliases = icon.get("aliases", {})
        names = [icon["title"]] + aliases.get("aka", []) + list(aliases.get("loc", {}).values())
        chosen.append({"slug": slug, "title": icon["title"], "hex": icon["hex"],
                       "path": match.group(1), "names": names + extra})
    json.dump({"source": f"simple-icons {version} (npm), CC0 1.0", "icons": chosen},
              sys.stdout, ensure_ascii=False, indent=0)
    print()


if __name__ == "__main__":
    main()
