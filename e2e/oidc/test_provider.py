"""Tests of the test OpenID provider (provider.py), driven the way a relying party and a browser
would: discovery, the authorization code flow with PKCE (the login form posted as a browser posts
it), ID tokens checked against the JWKS with joserfc (Authlib's JOSE library), the refusals, every
control mode, and the Apple-style client (form_post, JWT client secret).

    python3 -m pytest e2e/oidc -q
"""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
import socket
import sys
import time
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import parse_qs, urljoin, urlsplit

import pytest
import requests
from joserfc import jwt
from joserfc.errors import BadSignatureError, JoseError
from joserfc.jwk import ECKey, KeySet

sys.path.insert(0, str(Path(__file__).resolve().parent))
from oidc_harness import ProviderProcess, apple_client_secret  # noqa: E402

SCHOOL = "flashcards-school"
SCHOOL_SECRET = "school-test-secret"
SCHOOL_REDIRECT = "http://127.0.0.1:9/auth/oidc/school/callback"
APPLE = "org.example.flashcards.signin"
APPLE_REDIRECT = "http://127.0.0.1:9/auth/oidc/apple/callback"
TIMEOUT = 10


@pytest.fixture(scope="module")
def op():
    with ProviderProcess(redirect_uris={SCHOOL: SCHOOL_REDIRECT, APPLE: APPLE_REDIRECT}) as process:
        yield process


@pytest.fixture(autouse=True)
def fresh(op):
    op.reset()
    yield


# ----------------------------------------------------------------------------------------------
# A relying party and a browser, reduced to what the tests need
# ----------------------------------------------------------------------------------------------


class FormParser(HTMLParser):
    """Collects the forms of a page: action, method, inputs and submit buttons (with their text)."""

    def __init__(self):
        super().__init__()
        self.forms: list[dict] = []
        self.body_onload = None
        self._button = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "body":
            self.body_onload = attrs.get("onload")
        elif tag == "form":
            self.forms.append({"action": attrs.get("action"), "method": attrs.get("method", "get"), "inputs": [], "buttons": []})
        elif tag == "input" and self.forms:
            self.forms[-1]["inputs"].append(attrs)
        elif tag == "button" and self.forms:
            self._button = {**attrs, "text": ""}
            self.forms[-1]["buttons"].append(self._button)

    def handle_endtag(self, tag):
        if tag == "button":
            self._button = None

    def handle_data(self, data):
        if self._button is not None:
            self._button["text"] += data


def parse_page(text: str) -> FormParser:
    parser = FormParser()
    parser.feed(text)
    return parser


def pkce() -> tuple[str, str]:
    """A code verifier and its S256 challenge, computed as RFC 7636 §4.2 says."""
    verifier = secrets.token_urlsafe(48)
    digest = hashlib.sha256(verifier.encode("ascii")).digest()
    return verifier, base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def authorization_request(client_id=SCHOOL, redirect_uri=SCHOOL_REDIRECT, scope="openid email profile", **overrides):
    """The parameters of an authorization request (None in overrides drops a parameter), and the
    PKCE verifier that belongs to it."""
    verifier, challenge = pkce()
    params = {
        "client_id": client_id,
        "redirect_uri": redirect_uri,
        "response_type": "code",
        "scope": scope,
        "state": secrets.token_urlsafe(16),
        "nonce": secrets.token_urlsafe(16),
        "code_challenge": challenge,
        "code_challenge_method": "S256",
    }
    params.update(overrides)
    return {k: v for k, v in params.items() if v is not None}, verifier


def open_authorize(op, params) -> requests.Response:
    return requests.get(f"{op.issuer}/authorize", params=params, allow_redirects=False, timeout=TIMEOUT)


def login(op, params, user="anna") -> requests.Response:
    """Opens the authorization URL and presses the user's button, as a browser does: the form's
    inputs plus the pressed button's name and value, posted to the form's action."""
    page = open_authorize(op, params)
    assert page.status_code == 200, page.text
    form = parse_page(page.text).forms[0]
    assert form["method"].lower() == "post"
    button = next(b for b in form["buttons"] if b.get("value") == user or (user is None and b.get("name") == "deny"))
    data = [(i["name"], i.get("value", "")) for i in form["inputs"] if i.get("name")]
    data.append((button["name"], button["value"]))
    return requests.post(urljoin(page.url, form["action"]), data=data, allow_redirects=False, timeout=TIMEOUT)


def redirect_params(response: requests.Response, redirect_uri: str) -> dict:
    """The parameters of a redirect to the client (query response mode)."""
    assert response.status_code == 302, response.text
    location = response.headers["Location"]
    assert location.split("?")[0] == redirect_uri
    return {k: v[0] for k, v in parse_qs(urlsplit(location).query).items()}


def form_post_params(response: requests.Response, redirect_uri: str) -> dict:
    """The parameters of a form_post response: an auto-submitting form POSTing to the client."""
    assert response.status_code == 200, response.text
    assert response.headers["Content-Type"].startswith("text/html")
    page = parse_page(response.text)
    assert page.body_onload and "submit()" in page.body_onload
    (form,) = page.forms
    assert form["method"].lower() == "post"
    assert form["action"] == redirect_uri
    return {i["name"]: i["value"] for i in form["inputs"] if i.get("type") == "hidden"}


def get_code(op, params, user="anna") -> str:
    result = redirect_params(login(op, params, user), params["redirect_uri"])
    assert result["state"] == params["state"]
    return result["code"]


def token_request(op, code, verifier, redirect_uri=SCHOOL_REDIRECT, client_id=SCHOOL, secret=SCHOOL_SECRET, auth="basic"):
    data = {"grant_type": "authorization_code", "code": code, "redirect_uri": redirect_uri, "code_verifier": verifier}
    kwargs = {}
    if auth == "basic":
        kwargs["auth"] = (client_id, secret)
    else:
        data.update(client_id=client_id, client_secret=secret)
    return requests.post(f"{op.issuer}/token", data=data, timeout=TIMEOUT, **kwargs)


def discover(op) -> dict:
    return requests.get(f"{op.issuer}/.well-known/openid-configuration", timeout=TIMEOUT).json()


class JwksCache:
    """What a relying party keeps: the JWKS, fetched once and again only for an unknown kid."""

    def __init__(self, jwks_uri: str):
        self.jwks_uri = jwks_uri
        self.keys: KeySet | None = None
        self.fetches = 0

    def _fetch(self):
        self.keys = KeySet.import_key_set(requests.get(self.jwks_uri, timeout=TIMEOUT).json())
        self.fetches += 1

    def kids(self) -> set[str]:
        return {key.kid for key in self.keys.keys} if self.keys else set()

    def key_set_for(self, kid: str) -> KeySet:
        if self.keys is None or kid not in self.kids():
            self._fetch()
        if kid not in self.kids():
            raise LookupError(f"kid {kid!r} is not in the JWKS")
        return self.keys


def peek_header(token: str) -> dict:
    head = token.split(".")[0]
    return json.loads(base64.urlsafe_b64decode(head + "=" * (-len(head) % 4)))


def verify_id_token(op, id_token, client_id, nonce, alg, cache: JwksCache | None = None) -> jwt.Token:
    """Verifies an ID token as the server must: signature with the JWKS key of its kid (only the
    client's alg accepted), then iss, aud, exp, iat, sub and nonce."""
    cache = cache or JwksCache(discover(op)["jwks_uri"])
    header = peek_header(id_token)
    token = jwt.decode(id_token, cache.key_set_for(header["kid"]), algorithms=[alg])
    jwt.JWTClaimsRegistry(
        iss={"essential": True, "value": op.issuer},
        aud={"essential": True, "value": client_id},
        exp={"essential": True},
        iat={"essential": True},
        sub={"essential": True},
        nonce={"essential": True, "value": nonce},
    ).validate(token.claims)
    return token


def signature_only(op, id_token: str) -> dict:
    """The claims of an ID token whose signature the JWKS confirms (claims unchecked)."""
    keys = JwksCache(f"{op.issuer}/jwks").key_set_for(peek_header(id_token)["kid"])
    return jwt.decode(id_token, keys, algorithms=["RS256", "ES256"]).claims


def school_tokens(op, user="anna", scope="openid email profile") -> tuple[dict, dict]:
    """Runs the school client's flow to the token response; returns it and the request params."""
    params, verifier = authorization_request(scope=scope)
    code = get_code(op, params, user)
    response = token_request(op, code, verifier)
    assert response.status_code == 200, response.text
    return response.json(), params


def apple_tokens(op, user="anna") -> tuple[dict, dict, dict]:
    params, verifier = authorization_request(APPLE, APPLE_REDIRECT, "openid name email", response_mode="form_post")
    fields = form_post_params(login(op, params, user), APPLE_REDIRECT)
    secret = apple_client_secret(APPLE, op.issuer)
    response = token_request(op, fields["code"], verifier, APPLE_REDIRECT, APPLE, secret, auth="post")
    assert response.status_code == 200, response.text
    return response.json(), params, fields


# ----------------------------------------------------------------------------------------------
# Discovery and keys
# ----------------------------------------------------------------------------------------------


def test_discovery(op):
    from authlib.oidc.discovery import OpenIDProviderMetadata

    doc = discover(op)
    OpenIDProviderMetadata(doc).validate()
    assert doc["issuer"] == op.issuer
    for name, path in [("authorization_endpoint", "/authorize"), ("token_endpoint", "/token"),
                       ("jwks_uri", "/jwks"), ("userinfo_endpoint", "/userinfo")]:
        assert doc[name] == op.issuer + path
    assert doc["response_types_supported"] == ["code"]
    assert doc["subject_types_supported"] == ["public"]
    assert doc["id_token_signing_alg_values_supported"] == ["RS256", "ES256"]
    assert doc["code_challenge_methods_supported"] == ["S256"]
    assert doc["response_modes_supported"] == ["query", "form_post"]
    assert doc["token_endpoint_auth_methods_supported"] == ["client_secret_post", "client_secret_basic"]
    assert op.requests()["discovery"] == 1


def test_jwks_has_public_rsa_and_ec_keys(op):
    jwks = requests.get(discover(op)["jwks_uri"], timeout=TIMEOUT).json()
    by_kty = {key["kty"]: key for key in jwks["keys"]}
    assert set(by_kty) == {"RSA", "EC"}
    rsa, ec = by_kty["RSA"], by_kty["EC"]
    assert rsa["alg"] == "RS256" and ec["alg"] == "ES256" and ec["crv"] == "P-256"
    assert len(base64.urlsafe_b64decode(rsa["n"] + "==")) == 256  # 2048 bits
    assert rsa["kid"] and ec["kid"] and rsa["kid"] != ec["kid"]
    assert all("d" not in key and "p" not in key for key in jwks["keys"])  # no private parts
    assert op.state()["kids"] == {"RS256": rsa["kid"], "ES256": ec["kid"]}
    assert op.requests()["jwks"] == 1


def test_issuer_with_path():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    issuer = f"http://127.0.0.1:{port}/tenant/one"
    with ProviderProcess(port=port, issuer=issuer, redirect_uris={SCHOOL: SCHOOL_REDIRECT}) as other:
        doc = discover(other)
        assert doc["issuer"] == issuer and doc["jwks_uri"] == issuer + "/jwks"
        params, verifier = authorization_request()
        page = open_authorize(other, params)
        assert parse_page(page.text).forms[0]["action"] == "/tenant/one/authorize"
        code = get_code(other, params)
        tokens = token_request(other, code, verifier).json()
        assert verify_id_token(other, tokens["id_token"], SCHOOL, params["nonce"], "RS256").claims["iss"] == issuer


# ----------------------------------------------------------------------------------------------
# The code flow
# ----------------------------------------------------------------------------------------------


def test_login_page_lists_the_users(op):
    params, _ = authorization_request()
    page = open_authorize(op, params)
    assert page.status_code == 200 and page.headers["Content-Type"].startswith("text/html")
    texts = [b["text"] for b in parse_page(page.text).forms[0]["buttons"]]
    assert "Anna (anna@example.org, verified)" in texts
    assert "Ben (ben@example.org, unverified)" in texts
    assert "Cancel" in texts


def test_code_flow_rs256_client_secret_basic(op):
    params, verifier = authorization_request()
    code = get_code(op, params, "anna")
    response = token_request(op, code, verifier, auth="basic")
    assert response.status_code == 200, response.text
    assert response.headers["Cache-Control"] == "no-store"
    tokens = response.json()
    assert tokens["token_type"] == "Bearer" and tokens["expires_in"] == 3600 and tokens["access_token"]

    token = verify_id_token(op, tokens["id_token"], SCHOOL, params["nonce"], "RS256")
    assert token.header["alg"] == "RS256" and token.header["kid"] == op.state()["kids"]["RS256"]
    claims = token.claims
    now = time.time()
    assert claims["sub"] == "user-anna-1001"
    assert claims["aud"] == SCHOOL
    assert now - 5 <= claims["iat"] <= now + 1 and claims["exp"] > now + 3000
    assert claims["email"] == "anna@example.org" and claims["email_verified"] is True
    assert claims["name"] == "Anna Example"
    assert claims["at_hash"]

    info = requests.get(f"{op.issuer}/userinfo", headers={"Authorization": f"Bearer {tokens['access_token']}"}, timeout=TIMEOUT)
    assert info.status_code == 200
    assert info.json() == {
        "sub": "user-anna-1001", "email": "anna@example.org", "email_verified": True,
        "name": "Anna Example", "given_name": "Anna", "family_name": "Example",
    }
    counts = op.requests()
    assert counts["token"] == 1 and counts["token_auth_client_secret_basic"] == 1


def test_code_flow_client_secret_post_unverified_user(op):
    params, verifier = authorization_request(scope="openid email")
    code = get_code(op, params, "ben")
    response = token_request(op, code, verifier, auth="post")
    assert response.status_code == 200, response.text
    claims = verify_id_token(op, response.json()["id_token"], SCHOOL, params["nonce"], "RS256").claims
    assert claims["email"] == "ben@example.org" and claims["email_verified"] is False
    assert "name" not in claims  # no profile scope
    assert op.requests()["token_auth_client_secret_post"] == 1


def test_user_without_email(op):
    tokens, params = school_tokens(op, "cara")
    claims = verify_id_token(op, tokens["id_token"], SCHOOL, params["nonce"], "RS256").claims
    assert "email" not in claims and "email_verified" not in claims and claims["name"] == "Cara Nomail"


def test_school_client_may_use_form_post(op):
    params, verifier = authorization_request(response_mode="form_post")
    fields = form_post_params(login(op, params), SCHOOL_REDIRECT)
    assert fields["state"] == params["state"] and "user" not in fields
    assert token_request(op, fields["code"], verifier).status_code == 200


# ----------------------------------------------------------------------------------------------
# Refusals at the authorization endpoint
# ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "overrides",
    [
        {"client_id": "no-such-client"},
        {"redirect_uri": "http://127.0.0.1:9/evil"},
        {"redirect_uri": SCHOOL_REDIRECT + "/more"},
        {"redirect_uri": SCHOOL_REDIRECT + "?x=1"},
        {"redirect_uri": None},
        {"redirect_uri": APPLE_REDIRECT},  # another client's
    ],
    ids=["unknown-client", "foreign-uri", "longer-uri", "extra-query", "missing-uri", "other-clients-uri"],
)
def test_untrusted_redirect_gets_an_error_page(op, overrides):
    params, _ = authorization_request(**overrides)
    response = open_authorize(op, params)
    assert response.status_code == 400
    assert "Location" not in response.headers
    assert response.headers["Content-Type"].startswith("text/html")
    assert "refused" in response.text


@pytest.mark.parametrize(
    "overrides, error",
    [
        ({"code_challenge": None, "code_challenge_method": None}, "invalid_request"),
        ({"code_challenge_method": "plain"}, "invalid_request"),
        ({"code_challenge_method": None}, "invalid_request"),
        ({"nonce": None}, "invalid_request"),
        ({"scope": "email profile"}, "invalid_scope"),
        ({"response_type": "token"}, "unsupported_response_type"),
        ({"response_mode": "fragment"}, "invalid_request"),
        ({"prompt": "none"}, "login_required"),
    ],
    ids=["no-pkce", "plain-pkce", "no-pkce-method", "no-nonce", "no-openid", "implicit", "fragment", "prompt-none"],
)
def test_bad_request_redirects_with_error(op, overrides, error):
    params, _ = authorization_request(**overrides)
    result = redirect_params(open_authorize(op, params), SCHOOL_REDIRECT)
    assert result["error"] == error
    assert result["state"] == params["state"]
    assert "code" not in result


def test_missing_state_is_refused(op):
    params, _ = authorization_request(state=None)
    result = redirect_params(open_authorize(op, params), SCHOOL_REDIRECT)
    assert result["error"] == "invalid_request" and "state" not in result


def test_cancel_gives_access_denied(op):
    params, _ = authorization_request()
    result = redirect_params(login(op, params, user=None), SCHOOL_REDIRECT)
    assert result["error"] == "access_denied" and result["state"] == params["state"]
    assert "code" not in result


def test_reused_nonce_is_refused(op):
    params, _ = authorization_request()
    get_code(op, params)
    again, _ = authorization_request(nonce=params["nonce"])
    assert redirect_params(open_authorize(op, again), SCHOOL_REDIRECT)["error"] == "invalid_request"


# ----------------------------------------------------------------------------------------------
# Refusals at the token endpoint
# ----------------------------------------------------------------------------------------------


def test_wrong_code_verifier_is_refused(op):
    params, _ = authorization_request()
    code = get_code(op, params)
    other_verifier, _ = pkce()
    response = token_request(op, code, other_verifier)
    assert response.status_code == 400 and response.json()["error"] == "invalid_grant"


def test_missing_code_verifier_is_refused(op):
    params, _ = authorization_request()
    code = get_code(op, params)
    response = requests.post(
        f"{op.issuer}/token",
        data={"grant_type": "authorization_code", "code": code, "redirect_uri": SCHOOL_REDIRECT},
        auth=(SCHOOL, SCHOOL_SECRET),
        timeout=TIMEOUT,
    )
    assert response.status_code == 400 and response.json()["error"] == "invalid_request"


def test_reused_code_is_refused_and_revokes_its_tokens(op):
    params, verifier = authorization_request()
    code = get_code(op, params)
    first = token_request(op, code, verifier)
    assert first.status_code == 200
    access = first.json()["access_token"]
    second = token_request(op, code, verifier)
    assert second.status_code == 400 and second.json()["error"] == "invalid_grant"
    info = requests.get(f"{op.issuer}/userinfo", headers={"Authorization": f"Bearer {access}"}, timeout=TIMEOUT)
    assert info.status_code == 401


def test_wrong_redirect_uri_is_refused(op):
    params, verifier = authorization_request()
    code = get_code(op, params)
    response = token_request(op, code, verifier, redirect_uri=SCHOOL_REDIRECT + "/other")
    assert response.status_code == 400 and response.json()["error"] == "invalid_grant"


@pytest.mark.parametrize("auth", ["basic", "post"])
def test_wrong_client_secret_is_refused(op, auth):
    params, verifier = authorization_request()
    code = get_code(op, params)
    response = token_request(op, code, verifier, secret="not-the-secret", auth=auth)
    assert response.status_code in (400, 401) and response.json()["error"] == "invalid_client"
    # The failed client authentication did not use the code up.
    assert token_request(op, code, verifier, auth=auth).status_code == 200


def test_expired_code_is_refused(op):
    op.control(code_ttl=0)
    params, verifier = authorization_request()
    code = get_code(op, params)
    response = token_request(op, code, verifier)
    assert response.status_code == 400 and response.json()["error"] == "invalid_grant"


def test_code_of_another_client_is_refused(op):
    params, verifier = authorization_request()
    code = get_code(op, params)
    response = token_request(op, code, verifier, SCHOOL_REDIRECT, APPLE, apple_client_secret(APPLE, op.issuer), auth="post")
    assert response.status_code == 400 and response.json()["error"] == "invalid_grant"


def test_userinfo_needs_a_valid_token(op):
    for headers in [{}, {"Authorization": "Bearer nope"}, {"Authorization": "Basic abc"}]:
        response = requests.get(f"{op.issuer}/userinfo", headers=headers, timeout=TIMEOUT)
        assert response.status_code == 401 and "invalid_token" in response.headers["WWW-Authenticate"]


# ----------------------------------------------------------------------------------------------
# Control modes: each one produces the token it claims to
# ----------------------------------------------------------------------------------------------


def spoilt_token(op, mode, alg="RS256"):
    op.control(mode=mode)
    if alg == "RS256":
        tokens, params = school_tokens(op)
        client = SCHOOL
    else:
        tokens, params, _ = apple_tokens(op)
        client = APPLE
    return tokens["id_token"], params, client


def test_normal_mode_verifies(op):
    id_token, params, client = spoilt_token(op, "normal")
    verify_id_token(op, id_token, client, params["nonce"], "RS256")


@pytest.mark.parametrize("alg", ["RS256", "ES256"])
def test_forge_signature(op, alg):
    id_token, params, client = spoilt_token(op, "forge_signature", alg)
    header = peek_header(id_token)
    assert header["kid"] == op.state()["kids"][alg]  # a kid the JWKS has ...
    with pytest.raises(BadSignatureError):  # ... but not the key that signed
        verify_id_token(op, id_token, client, params["nonce"], alg)


def test_wrong_audience(op):
    id_token, params, client = spoilt_token(op, "wrong_audience")
    assert signature_only(op, id_token)["aud"] == "some-other-client"
    with pytest.raises(JoseError):
        verify_id_token(op, id_token, client, params["nonce"], "RS256")


def test_expired(op):
    id_token, params, client = spoilt_token(op, "expired")
    claims = signature_only(op, id_token)
    assert claims["exp"] < time.time() - 3000 and claims["iat"] < claims["exp"]
    with pytest.raises(JoseError):
        verify_id_token(op, id_token, client, params["nonce"], "RS256")


def test_wrong_nonce(op):
    id_token, params, client = spoilt_token(op, "wrong_nonce")
    assert signature_only(op, id_token)["nonce"] != params["nonce"]
    with pytest.raises(JoseError) as failure:
        verify_id_token(op, id_token, client, params["nonce"], "RS256")
    assert "nonce" in str(failure.value)


def test_wrong_issuer(op):
    id_token, params, client = spoilt_token(op, "wrong_issuer")
    assert signature_only(op, id_token)["iss"] == "https://impostor.example.org"
    with pytest.raises(JoseError) as failure:
        verify_id_token(op, id_token, client, params["nonce"], "RS256")
    assert "iss" in str(failure.value)


def test_alg_none(op):
    id_token, params, client = spoilt_token(op, "alg_none")
    assert peek_header(id_token) == {"alg": "none", "typ": "JWT"} and id_token.endswith(".")
    jwks = KeySet.import_key_set(requests.get(f"{op.issuer}/jwks", timeout=TIMEOUT).json())
    with pytest.raises(JoseError):  # a relying party that accepts only its client's alg refuses it
        jwt.decode(id_token, jwks, algorithms=["RS256"])


def test_unknown_kid_refetches_once_then_fails(op):
    cache = JwksCache(f"{op.issuer}/jwks")
    cache.key_set_for(op.state()["kids"]["RS256"])  # warm cache
    id_token, params, client = spoilt_token(op, "unknown_kid")
    with pytest.raises(LookupError):
        verify_id_token(op, id_token, client, params["nonce"], "RS256", cache)
    assert cache.fetches == 2 and op.requests()["jwks"] == 2


def test_mode_stays_until_normal(op):
    op.control(mode="wrong_issuer")
    for _ in range(2):
        tokens, _ = school_tokens(op)
        assert signature_only(op, tokens["id_token"])["iss"] == "https://impostor.example.org"
    op.control(mode="normal")
    tokens, params = school_tokens(op)
    verify_id_token(op, tokens["id_token"], SCHOOL, params["nonce"], "RS256")


def test_rotate_keys_needs_a_refetch(op):
    cache = JwksCache(f"{op.issuer}/jwks")
    tokens, params = school_tokens(op)
    verify_id_token(op, tokens["id_token"], SCHOOL, params["nonce"], "RS256", cache)
    tokens, params = school_tokens(op)
    verify_id_token(op, tokens["id_token"], SCHOOL, params["nonce"], "RS256", cache)
    assert op.requests()["jwks"] == 1  # cached: fetched once for two tokens
    old_kids = cache.kids()

    state = op.control(mode="rotate_keys")
    assert state["mode"] == "normal"
    assert set(state["kids"].values()).isdisjoint(old_kids)

    tokens, params = school_tokens(op)
    assert peek_header(tokens["id_token"])["kid"] not in old_kids
    verify_id_token(op, tokens["id_token"], SCHOOL, params["nonce"], "RS256", cache)
    assert op.requests()["jwks"] == 2  # refetched for the unknown kid
    assert cache.kids() == set(state["kids"].values())  # old keys gone from the JWKS


def test_control_rejects_unknown_mode(op):
    response = requests.post(f"{op.issuer}/control", json={"mode": "chaos"}, timeout=TIMEOUT)
    assert response.status_code == 400 and "unknown mode" in response.json()["error"]


def test_control_sets_redirect_uris(op):
    new_uri = "http://127.0.0.1:9/another/callback"
    op.control(redirect_uris={SCHOOL: [new_uri]})
    try:
        params, verifier = authorization_request(redirect_uri=new_uri)
        code = get_code(op, params)
        assert token_request(op, code, verifier, redirect_uri=new_uri).status_code == 200
        old, _ = authorization_request()
        assert open_authorize(op, old).status_code == 400
    finally:
        op.control(redirect_uris={SCHOOL: [SCHOOL_REDIRECT]})


# ----------------------------------------------------------------------------------------------
# The Apple-style client: form_post, ES256, JWT client secret
# ----------------------------------------------------------------------------------------------


def test_apple_style_flow(op):
    tokens, params, fields = apple_tokens(op, "anna")
    assert fields["state"] == params["state"]
    assert json.loads(fields["user"]) == {"name": {"firstName": "Anna", "lastName": "Example"}, "email": "anna@example.org"}

    token = verify_id_token(op, tokens["id_token"], APPLE, params["nonce"], "ES256")
    assert token.header["alg"] == "ES256" and token.header["kid"] == op.state()["kids"]["ES256"]
    claims = token.claims
    assert claims["sub"] == "user-anna-1001" and claims["email"] == "anna@example.org"
    assert claims["email_verified"] == "true"  # Apple's string form
    assert "name" not in claims  # Apple never puts the name into the ID token

    # The user field comes with the first authorization only.
    _, _, again = apple_tokens(op, "anna")
    assert "user" not in again


def test_apple_style_needs_form_post(op):
    params, _ = authorization_request(APPLE, APPLE_REDIRECT, "openid name email")
    result = redirect_params(open_authorize(op, params), APPLE_REDIRECT)
    assert result["error"] == "invalid_request" and result["state"] == params["state"]


def test_apple_style_errors_come_by_form_post(op):
    params, _ = authorization_request(APPLE, APPLE_REDIRECT, "openid name email", response_mode="form_post", nonce=None)
    fields = form_post_params(open_authorize(op, params), APPLE_REDIRECT)
    assert fields["error"] == "invalid_request" and fields["state"] == params["state"]


BAD_APPLE_SECRETS = {
    "other-key": lambda op: apple_client_secret(APPLE, op.issuer, key_pem=ECKey.generate_key("P-256").as_pem(private=True)),
    "wrong-kid": lambda op: apple_client_secret(APPLE, op.issuer, key_id="OTHERKEY00"),
    "wrong-team": lambda op: apple_client_secret(APPLE, op.issuer, team_id="OTHERTEAM0"),
    "wrong-audience": lambda op: apple_client_secret(APPLE, "https://appleid.apple.com"),
    "wrong-subject": lambda op: apple_client_secret(SCHOOL, op.issuer),
    "expired": lambda op: apple_client_secret(APPLE, op.issuer, issued_at=int(time.time()) - 7200, lifetime=3600),
    "too-long": lambda op: apple_client_secret(APPLE, op.issuer, lifetime=400 * 86400),
    "not-a-jwt": lambda op: "secret",
}


@pytest.mark.parametrize("kind", list(BAD_APPLE_SECRETS))
def test_apple_style_bad_client_secret_is_refused(op, kind):
    params, verifier = authorization_request(APPLE, APPLE_REDIRECT, "openid name email", response_mode="form_post")
    fields = form_post_params(login(op, params), APPLE_REDIRECT)
    bad = BAD_APPLE_SECRETS[kind](op)
    response = token_request(op, fields["code"], verifier, APPLE_REDIRECT, APPLE, bad, auth="post")
    assert response.status_code in (400, 401) and response.json()["error"] == "invalid_client"
    good = apple_client_secret(APPLE, op.issuer)
    assert token_request(op, fields["code"], verifier, APPLE_REDIRECT, APPLE, good, auth="post").status_code == 200


def test_apple_style_secret_only_by_post(op):
    params, verifier = authorization_request(APPLE, APPLE_REDIRECT, "openid name email", response_mode="form_post")
    fields = form_post_params(login(op, params), APPLE_REDIRECT)
    good = apple_client_secret(APPLE, op.issuer)
    response = token_request(op, fields["code"], verifier, APPLE_REDIRECT, APPLE, good, auth="basic")
    assert response.status_code == 401 and response.json()["error"] == "invalid_client"
