"""Sign-in with OpenID Connect (issue 38) against a real local provider (e2e/oidc/provider.py, Authlib):
discovery, the authorization code flow with PKCE, state and nonce, ID tokens signed RS256 (a school) and
ES256 (Apple's variant: form_post and a signed client secret), keys from the JWKS, cached and fetched again
for an unknown kid. A new learner gets an account; an existing account is linked only with its password;
forged, foreign, expired and replayed sign-ins are refused with their reason. On SQLite and PostgreSQL."""

from __future__ import annotations

from html.parser import HTMLParser
from urllib.parse import parse_qs, urljoin, urlsplit

import pytest
import requests

from conftest import PASSWORD, Api
from openapi_helpers import V1


class Forms(HTMLParser):
    """The forms of a page: action, method, inputs and buttons (what a browser submits)."""

    def __init__(self):
        super().__init__()
        self.forms: list[dict] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self.forms.append({"action": a.get("action", ""), "method": a.get("method", "get"), "inputs": [], "buttons": []})
        elif tag == "input" and self.forms:
            self.forms[-1]["inputs"].append(a)
        elif tag == "button" and self.forms:
            self.forms[-1]["buttons"].append(a)


def forms(html: str) -> list[dict]:
    parser = Forms()
    parser.feed(html)
    return parser.forms


def sign_in(server, provider_id: str, user: str = "anna") -> dict:
    """A browser's way through: the server's start (302 to the provider), the provider's login form, the
    callback (a redirect, or Apple's auto-submitting form), and the web app's page with its query."""
    browser = requests.Session()
    start = browser.get(f"{server.base_url}{V1}/auth/oidc/{provider_id}/start", allow_redirects=False, timeout=10)
    assert start.status_code == 303, start.text
    server.exercised.add(("GET", V1 + "/auth/oidc/{provider}/start", 303))
    page = browser.get(start.headers["Location"], timeout=10)
    assert page.status_code == 200, page.text
    (form,) = forms(page.text)
    data = [(i["name"], i.get("value", "")) for i in form["inputs"] if i.get("name")]
    data.append(("login", user))
    answer = browser.post(urljoin(page.url, form["action"]), data=data, allow_redirects=False, timeout=10)
    if answer.status_code == 200:  # form_post: the page posts code and state to the callback
        (posted,) = forms(answer.text)
        fields = {i["name"]: i.get("value", "") for i in posted["inputs"] if i.get("name")}
        back = browser.post(posted["action"], data=fields, allow_redirects=False, timeout=10)
        server.exercised.add(("POST", V1 + "/auth/oidc/{provider}/callback", back.status_code))
    else:
        assert answer.status_code == 302, answer.text
        back = browser.get(answer.headers["Location"], allow_redirects=False, timeout=10)
        server.exercised.add(("GET", V1 + "/auth/oidc/{provider}/callback", back.status_code))
    assert back.status_code == 303, back.text
    location = urlsplit(back.headers["Location"])
    assert location.path == "/app/login"
    return {k: v[0] for k, v in parse_qs(location.query).items()}


def test_providers_are_listed(oidc, checker):
    server, _ = oidc
    _, body = Api(server, checker).call("GET", V1 + "/auth/oidc/providers", expect=200)
    assert body == {"providers": [{"id": "school", "name": "Schul-Login"}, {"id": "apple", "name": "Apple"}]}


def test_new_learner_gets_an_account_and_comes_back_to_it(oidc, checker):
    server, provider = oidc
    provider.reset()
    api = Api(server, checker)
    outcome = sign_in(server, "school", "anna")
    assert set(outcome) == {"oidc"}, outcome
    _, session = api.call("POST", V1 + "/auth/oidc/session", json_body={"code": outcome["oidc"]}, expect=200)
    assert session["user"]["mail"] == "anna@example.org" and session["user"]["name"] == "Anna Example"
    # The code works once.
    _, again = api.call("POST", V1 + "/auth/oidc/session", json_body={"code": outcome["oidc"]}, expect=401)
    assert again["code"] == "oidc_state_invalid"
    _, me = api.call("GET", V1 + "/me/identities", token=session["token"], expect=200)
    assert [i["provider"] for i in me["identities"]] == ["school"] and me["passwordSet"] is False
    # No password: unlinking would lock the learner out.
    _, refused = api.call("DELETE", V1 + "/me/identities/{provider}", path={"provider": "school"}, token=session["token"], expect=409)
    assert refused["code"] == "password_required"
    # The second sign-in finds the same account; the provider's keys were fetched once.
    second = sign_in(server, "school", "anna")
    _, session2 = api.call("POST", V1 + "/auth/oidc/session", json_body={"code": second["oidc"]}, expect=200)
    assert session2["user"]["id"] == session["user"]["id"]
    assert provider.requests().get("jwks", 0) == 1


def test_existing_account_is_linked_only_with_its_password(oidc, checker):
    server, provider = oidc
    provider.reset()
    api = Api(server, checker)
    # An account with Dora's address, made with a password: the provider's account must not take it over.
    mail = "dora@example.org"
    owner = requests.post(
        server.base_url + V1 + "/auth/signup", json={"name": "Dora", "mail": mail, "password": PASSWORD}, timeout=10
    )
    assert owner.status_code == 201, owner.text
    outcome = sign_in(server, "apple", "dora")
    _, required = api.call("POST", V1 + "/auth/oidc/session", json_body={"code": outcome["oidc"]}, expect=409)
    assert required["code"] == "oidc_link_required" and required["mail"] == mail
    _, wrong = api.call(
        "POST", V1 + "/auth/oidc/link", json_body={"code": outcome["oidc"], "password": "falsch-123"}, expect=401
    )
    _, linked = api.call("POST", V1 + "/auth/oidc/link", json_body={"code": outcome["oidc"], "password": PASSWORD}, expect=200)
    assert linked["user"]["id"] == owner.json()["user"]["id"]
    # From now on Apple signs in to that account directly; it has a password, so it may unlink.
    direct = sign_in(server, "apple", "dora")
    _, session = api.call("POST", V1 + "/auth/oidc/session", json_body={"code": direct["oidc"]}, expect=200)
    assert session["user"]["id"] == linked["user"]["id"]
    _, me = api.call("GET", V1 + "/me/identities", token=session["token"], expect=200)
    assert me["passwordSet"] is True and [i["name"] for i in me["identities"]] == ["Apple"]
    api.call("DELETE", V1 + "/me/identities/{provider}", path={"provider": "apple"}, token=session["token"], expect=204)
    api.call("DELETE", V1 + "/me/identities/{provider}", path={"provider": "apple"}, token=session["token"], expect=404)
    again = sign_in(server, "apple", "dora")
    api.call("POST", V1 + "/auth/oidc/session", json_body={"code": again["oidc"]}, expect=409)


@pytest.mark.parametrize(
    "mode, reason",
    [
        ("forge_signature", "signature_invalid"),
        ("alg_none", "signature_invalid"),
        ("unknown_kid", "signature_invalid"),
        ("wrong_audience", "audience_invalid"),
        ("expired", "token_expired"),
        ("wrong_nonce", "nonce_invalid"),
        ("wrong_issuer", "issuer_invalid"),
    ],
)
def test_bad_tokens_are_refused_with_their_reason(oidc, mode, reason):
    server, provider = oidc
    provider.reset()
    provider.control(mode=mode)
    try:
        assert sign_in(server, "school", "anna") == {"oidcError": reason}
    finally:
        provider.control(mode="normal")


def test_rotated_keys_are_fetched_again_once(oidc, checker):
    server, provider = oidc
    provider.reset()
    sign_in(server, "school", "anna")  # warm: the keys this server holds
    before = provider.requests().get("jwks", 0)
    provider.control(mode="rotate_keys")
    outcome = sign_in(server, "school", "anna")
    assert "oidc" in outcome, outcome
    assert provider.requests().get("jwks", 0) == before + 1


def test_replayed_state_unverified_mail_missing_mail_and_cancel(oidc):
    server, provider = oidc
    provider.reset()
    browser = requests.Session()
    start = browser.get(f"{server.base_url}{V1}/auth/oidc/school/start", allow_redirects=False, timeout=10)
    params = {k: v[0] for k, v in parse_qs(urlsplit(start.headers["Location"]).query).items()}
    page = browser.get(start.headers["Location"], timeout=10)
    (form,) = forms(page.text)
    data = [(i["name"], i.get("value", "")) for i in form["inputs"] if i.get("name")] + [("login", "anna")]
    answer = browser.post(urljoin(page.url, form["action"]), data=data, allow_redirects=False, timeout=10)
    callback = answer.headers["Location"]
    first = browser.get(callback, allow_redirects=False, timeout=10)
    assert "oidc=" in first.headers["Location"]
    replay = browser.get(callback, allow_redirects=False, timeout=10)
    assert replay.headers["Location"] == "/app/login?oidcError=state_invalid"
    forged = browser.get(
        f"{server.base_url}{V1}/auth/oidc/school/callback?code=x&state={params['state'][:-2]}AA", allow_redirects=False, timeout=10
    )
    assert forged.headers["Location"] == "/app/login?oidcError=state_invalid"
    assert sign_in(server, "school", "ben") == {"oidcError": "mail_unverified"}
    assert sign_in(server, "school", "cara") == {"oidcError": "mail_missing"}
    unknown = requests.get(f"{server.base_url}{V1}/auth/oidc/nirgends/start", allow_redirects=False, timeout=10)
    assert unknown.headers["Location"] == "/app/login?oidcError=provider_unknown"
