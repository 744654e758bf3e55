#!/usr/bin/env python3
"""A real, local OpenID Connect provider for end-to-end tests of "Sign in with OpenID Connect".

The protocol work (client authentication, redirect URI checks, authorization codes, PKCE, nonce,
error responses per RFC 6749) is done by Authlib's authorization server (`authlib.oauth2`,
`authlib.oidc`); keys and tokens are made with joserfc, the JOSE library that Authlib itself
uses. The HTTP layer is the standard library's `http.server`. Requirements: `pip install authlib`
(it brings joserfc and cryptography).

    python3 e2e/oidc/provider.py --port N [--host 127.0.0.1] [--issuer URL] [--config FILE]
                                 [--redirect-uri CLIENT_ID=URI ...] [--verbose]

It prints `READY <port>` on stdout once it listens (`--port 0` picks a free port). The issuer is
`http://HOST:PORT` unless `--issuer` names another one (say behind a proxy, or with a path: the
endpoints are then served under that path). Clients and users come from a JSON file: `--config`,
else the environment variable OIDC_PROVIDER_CONFIG, else `config.json` beside this file (see
README.md). `--redirect-uri CLIENT_ID=URI` (repeatable) replaces that client's registered
redirect URIs, since a server under test usually listens on a port chosen at run time.

Endpoints (relative to the issuer):

    GET  /.well-known/openid-configuration   discovery document
    GET  /jwks                               the current public signing keys (RS256 and ES256)
    GET  /authorize (or POST)                authorization request: validates it, shows a login
                                             form with one button per test user
    POST /authorize with login=USER          the login form's submission: redirects (or form-posts)
                                             code and state to the client's redirect URI
    POST /token                              authorization_code grant
    GET  /userinfo (or POST)                 claims for a Bearer access token
    GET  /control                            the test-control state
    POST /control                            {"mode": ..., "code_ttl": s, "redirect_uris": {...}}
    POST /control/reset                      mode normal, counters zero, first logins forgotten
    GET  /control/requests                   request counts per endpoint (e.g. JWKS fetches)
"""

from __future__ import annotations

import argparse
import hmac
import html
import json
import os
import secrets
import sys
import threading
import time
import traceback
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

# A test provider speaks plain HTTP on the loopback or a test host name; Authlib refuses
# non-HTTPS URIs other than loopback ones unless this is set.
os.environ.setdefault("AUTHLIB_INSECURE_TRANSPORT", "1")

from authlib.common.urls import add_params_to_uri  # noqa: E402
from authlib.oauth2 import AuthorizationServer  # noqa: E402
from authlib.oauth2.rfc6749 import (  # noqa: E402
    AuthorizationCodeMixin,
    ClientMixin,
    OAuth2Payload,
    OAuth2Request,
    grants,
)
from authlib.oauth2.rfc6749.errors import (  # noqa: E402
    AccessDeniedError,
    InvalidRequestError,
    InvalidScopeError,
    OAuth2Error,
)
from authlib.oauth2.rfc6750 import BearerTokenGenerator  # noqa: E402
from authlib.oauth2.rfc7636 import CodeChallenge  # noqa: E402
from authlib.oidc.core import OpenIDCode  # noqa: E402
from authlib.oidc.core.util import create_half_hash  # noqa: E402
from authlib.oidc.discovery import OpenIDProviderMetadata  # noqa: E402
from joserfc import jwt  # noqa: E402
from joserfc.errors import JoseError  # noqa: E402
from joserfc.jwk import ECKey, RSAKey  # noqa: E402
from joserfc.util import urlsafe_b64encode  # noqa: E402

HERE = Path(__file__).resolve().parent
DEFAULT_CONFIG = HERE / "config.json"

SIGNING_ALGS = ("RS256", "ES256")

#: Control modes. Every mode but `rotate_keys` stays in force (for every ID token issued) until
#: another mode is set; `rotate_keys` is an action that replaces the keys and sets `normal`.
MODES = {
    "normal": "correct ID tokens",
    "forge_signature": "signed with a key that is not in the JWKS, under the JWKS key's kid",
    "wrong_audience": "aud is another client's id",
    "expired": "exp (and iat) an hour in the past",
    "wrong_nonce": "nonce differs from the one in the authorization request",
    "wrong_issuer": "iss is another issuer",
    "unknown_kid": "signed with a key whose kid is in no JWKS, not even after a refetch",
    "alg_none": "unsigned token (header alg none, empty signature)",
    "rotate_keys": "action: new keys with new kids replace the old ones in the JWKS",
}

IMPOSTOR_ISSUER = "https://impostor.example.org"
OTHER_AUDIENCE = "some-other-client"


# ----------------------------------------------------------------------------------------------
# Configuration: users and clients
# ----------------------------------------------------------------------------------------------


@dataclass
class User:
    """A test user. `id` is the short name the login form posts; `sub` goes into tokens."""

    id: str
    sub: str
    name: str
    given_name: str = ""
    family_name: str = ""
    email: str | None = None
    email_verified: bool = False

    def label(self) -> str:
        """The login button's text, e.g. "Anna (anna@example.org, verified)"."""
        first = self.given_name or self.name
        if not self.email:
            return f"{first} (no email)"
        return f"{first} ({self.email}, {'verified' if self.email_verified else 'unverified'})"


@dataclass
class ClientSecretJWT:
    """Apple-style client authentication: the client_secret is an ES256 JWT that the client signs
    with its private key (kid = key_id, iss = team_id, sub = client_id, aud = the issuer)."""

    team_id: str
    key_id: str
    public_key: ECKey
    max_lifetime: int = 15777000  # six months, as Apple allows


@dataclass
class Client(ClientMixin):
    """A registered client, as Authlib's ClientMixin wants it."""

    client_id: str
    name: str
    redirect_uris: list[str]
    id_token_signed_response_alg: str = "RS256"
    client_secret: str | None = None
    client_secret_jwt: ClientSecretJWT | None = None
    token_endpoint_auth_methods: list[str] = field(
        default_factory=lambda: ["client_secret_basic", "client_secret_post"]
    )
    response_modes: list[str] = field(default_factory=lambda: ["query", "form_post"])
    scopes: list[str] = field(default_factory=lambda: ["openid", "email", "profile"])
    #: Apple's quirks: a `user` JSON field in the first authorization response per user, no name
    #: claims in the ID token, email_verified as the string "true"/"false".
    apple_style: bool = False
    #: Set by the provider so that the JWT client secret's audience can be checked.
    issuer: str = ""

    def get_client_id(self):
        return self.client_id

    def get_default_redirect_uri(self):
        return None  # OpenID Connect requires redirect_uri in every authorization request

    def get_allowed_scope(self, scope):
        # Unknown scopes are dropped (RFC 6749 §3.3 lets the server grant less than asked).
        if not scope:
            return None
        return " ".join(s for s in scope.split() if s in self.scopes)

    def check_redirect_uri(self, redirect_uri):
        return redirect_uri in self.redirect_uris  # exact string match

    def check_client_secret(self, client_secret):
        if self.client_secret is not None:
            return hmac.compare_digest(self.client_secret.encode(), client_secret.encode())
        if self.client_secret_jwt is not None:
            return self._check_jwt_client_secret(client_secret)
        return False

    def _check_jwt_client_secret(self, token: str) -> bool:
        """Verifies an Apple-style client secret: ES256 signature with the registered public key,
        kid, iss = team id, sub = client_id, aud = issuer, iat/exp present and in force."""
        spec = self.client_secret_jwt
        try:
            decoded = jwt.decode(token, spec.public_key, algorithms=["ES256"])
            if decoded.header.get("kid") != spec.key_id:
                return False
            now = int(time.time())
            jwt.JWTClaimsRegistry(
                now=now,
                leeway=5,
                iss={"essential": True, "value": spec.team_id},
                sub={"essential": True, "value": self.client_id},
                aud={"essential": True, "value": self.issuer},
                iat={"essential": True},
                exp={"essential": True},
            ).validate(decoded.claims)
            claims = decoded.claims
            return claims["iat"] <= now + 5 and claims["exp"] - claims["iat"] <= spec.max_lifetime
        except (JoseError, ValueError, TypeError, KeyError):
            return False

    def check_endpoint_auth_method(self, method, endpoint):
        return endpoint == "token" and method in self.token_endpoint_auth_methods

    def check_response_type(self, response_type):
        return response_type == "code"

    def check_grant_type(self, grant_type):
        return grant_type == "authorization_code"


def load_config(path: Path, redirect_overrides: dict[str, list[str]]) -> dict:
    """Reads the JSON configuration: users, clients and lifetimes (see config.json)."""
    raw = json.loads(path.read_text())
    users = {}
    for u in raw["users"]:
        user = User(
            id=u["id"],
            sub=u.get("sub", u["id"]),
            name=u["name"],
            given_name=u.get("given_name", ""),
            family_name=u.get("family_name", ""),
            email=u.get("email"),
            email_verified=bool(u.get("email_verified", False)),
        )
        users[user.id] = user
    clients = {}
    for c in raw["clients"]:
        jwt_spec = None
        if "client_secret_jwt" in c:
            s = c["client_secret_jwt"]
            if "public_key" in s:
                key_pem = s["public_key"]
            else:
                key_pem = (path.parent / s["key_file"]).read_text()
            # Only the public part is kept: the provider never needs the client's private key.
            public = ECKey.import_key(key_pem).as_dict(private=False)
            jwt_spec = ClientSecretJWT(
                team_id=s["team_id"],
                key_id=s["key_id"],
                public_key=ECKey.import_key(public),
                max_lifetime=int(s.get("max_lifetime", 15777000)),
            )
        client = Client(
            client_id=c["client_id"],
            name=c.get("name", c["client_id"]),
            redirect_uris=list(redirect_overrides.get(c["client_id"], c["redirect_uris"])),
            id_token_signed_response_alg=c.get("id_token_signed_response_alg", "RS256"),
            client_secret=c.get("client_secret"),
            client_secret_jwt=jwt_spec,
            token_endpoint_auth_methods=c.get(
                "token_endpoint_auth_methods", ["client_secret_basic", "client_secret_post"]
            ),
            response_modes=c.get("response_modes", ["query", "form_post"]),
            scopes=c.get("scopes", ["openid", "email", "profile"]),
            apple_style=bool(c.get("apple_style", False)),
        )
        if client.id_token_signed_response_alg not in SIGNING_ALGS:
            raise ValueError(f"{client.client_id}: unsupported alg {client.id_token_signed_response_alg}")
        if client.client_secret is None and client.client_secret_jwt is None:
            raise ValueError(f"{client.client_id}: needs client_secret or client_secret_jwt")
        clients[client.client_id] = client
    unknown = set(redirect_overrides) - set(clients)
    if unknown:
        raise ValueError(f"--redirect-uri for unknown client(s): {', '.join(sorted(unknown))}")
    return {
        "users": users,
        "clients": clients,
        "code_ttl": int(raw.get("code_ttl", 60)),
        "access_token_ttl": int(raw.get("access_token_ttl", 3600)),
        "id_token_ttl": int(raw.get("id_token_ttl", 3600)),
    }


# ----------------------------------------------------------------------------------------------
# Stored codes and tokens
# ----------------------------------------------------------------------------------------------


@dataclass
class AuthorizationCode(AuthorizationCodeMixin):
    code: str
    client_id: str
    redirect_uri: str
    scope: str
    user_id: str
    nonce: str | None
    code_challenge: str
    code_challenge_method: str
    issued_at: float
    auth_time: int
    used: bool = False
    access_tokens: list[str] = field(default_factory=list)

    def get_redirect_uri(self):
        return self.redirect_uri

    def get_scope(self):
        return self.scope

    # The OpenID Connect part of the mixin (authlib.oidc.core.AuthorizationCodeMixin).
    def get_nonce(self):
        return self.nonce

    def get_auth_time(self):
        return self.auth_time

    def get_acr(self):
        return None

    def get_amr(self):
        return None


@dataclass
class AccessToken:
    token: str
    client_id: str
    user_id: str
    scope: str
    expires_at: float
    revoked: bool = False


# ----------------------------------------------------------------------------------------------
# Signing keys
# ----------------------------------------------------------------------------------------------


class KeyStore:
    """The provider's signing keys: one RSA 2048 key (RS256) and one P-256 key (ES256), each with
    its kid, plus a forger's keys of the same kinds that never appear in the JWKS."""

    def __init__(self):
        self.generation = 0
        self.current: dict[str, RSAKey | ECKey] = {}
        self.forged = {"RS256": self._new_key("RS256", "forged"), "ES256": self._new_key("ES256", "forged")}
        self.rotate()

    @staticmethod
    def _new_key(alg: str, kid: str):
        params = {"kid": kid, "use": "sig", "alg": alg}
        if alg == "RS256":
            return RSAKey.generate_key(2048, parameters=params)
        return ECKey.generate_key("P-256", parameters=params)

    def rotate(self):
        """Replaces both keys by new ones with new kids; the old ones are gone from the JWKS."""
        self.generation += 1
        suffix = f"{self.generation}-{secrets.token_hex(4)}"
        self.current = {
            "RS256": self._new_key("RS256", f"rsa-{suffix}"),
            "ES256": self._new_key("ES256", f"ec-{suffix}"),
        }

    def jwks(self) -> dict:
        return {"keys": [key.as_dict(private=False) for key in self.current.values()]}

    def kids(self) -> dict[str, str]:
        return {alg: key.kid for alg, key in self.current.items()}


def unsigned_jwt(claims: dict) -> str:
    """A JWT with "alg": "none" and an empty signature (joserfc rightly refuses to make one)."""

    def part(obj):
        return urlsafe_b64encode(json.dumps(obj, separators=(",", ":")).encode()).decode()

    return f"{part({'alg': 'none', 'typ': 'JWT'})}.{part(claims)}."


# ----------------------------------------------------------------------------------------------
# Authlib glue: request, server, grant and extensions
# ----------------------------------------------------------------------------------------------


class Payload(OAuth2Payload):
    """Request parameters (query for GET, form for POST) as Authlib reads them."""

    def __init__(self, pairs: list[tuple[str, str]]):
        self._datalist = defaultdict(list)
        for key, value in pairs:
            self._datalist[key].append(value)
        self._data = {key: values[0] for key, values in self._datalist.items()}

    @property
    def data(self):
        return self._data

    @property
    def datalist(self):
        return self._datalist


class HttpRequest(OAuth2Request):
    def __init__(self, method: str, uri: str, headers, pairs: list[tuple[str, str]]):
        super().__init__(method, uri, headers=headers)
        self.payload = Payload(pairs)

    @property
    def args(self):
        return self.payload.data

    @property
    def form(self):
        return self.payload.data


@dataclass
class Response:
    status: int
    body: bytes = b""
    headers: list[tuple[str, str]] = field(default_factory=list)


def response_mode_of(request: OAuth2Request) -> str:
    return request.payload.data.get("response_mode") or "query"


def form_post_page(redirect_uri: str, params: list[tuple[str, str]]) -> Response:
    """OAuth 2.0 Form Post Response Mode: an HTML page that POSTs the parameters to the redirect
    URI as soon as it loads (with a button for browsers without JavaScript)."""
    inputs = "\n".join(
        f'    <input type="hidden" name="{html.escape(k)}" value="{html.escape(v)}">' for k, v in params
    )
    page = f"""<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Signing you in…</title></head>
<body onload="document.forms[0].submit()">
  <form method="post" action="{html.escape(redirect_uri)}">
{inputs}
    <noscript><button type="submit">Continue</button></noscript>
  </form>
</body>
</html>
"""
    return Response(200, page.encode(), [("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-store")])


class Server(AuthorizationServer):
    """Authlib's authorization server bound to the provider's in-memory state."""

    def __init__(self, provider: Provider):
        super().__init__(scopes_supported=None)
        self.provider = provider
        self.register_token_generator(
            "default",
            BearerTokenGenerator(
                access_token_generator=lambda **_: secrets.token_urlsafe(32),
                expires_generator=lambda client, grant_type: provider.access_token_ttl,
            ),
        )
        self.register_grant(
            CodeGrant,
            [StrictCodeChallenge(required=True), ProviderOpenIDCode(require_nonce=True), OpenIDRequirements()],
        )

    def query_client(self, client_id):
        return self.provider.clients.get(client_id)

    def save_token(self, token, request):
        code: AuthorizationCode = request.authorization_code
        self.provider.tokens[token["access_token"]] = AccessToken(
            token=token["access_token"],
            client_id=request.client.client_id,
            user_id=request.user.id,
            scope=token.get("scope", ""),
            expires_at=time.time() + token["expires_in"],
        )
        code.access_tokens.append(token["access_token"])

    def create_oauth2_request(self, request):
        return request  # the HTTP handler builds HttpRequest objects already

    def create_json_request(self, request):
        raise NotImplementedError

    def send_signal(self, name, *args, **kwargs):
        pass

    def handle_response(self, status, body, headers):
        if isinstance(body, dict):
            body = json.dumps(body)
        if isinstance(body, str):
            body = body.encode()
        return Response(status, body, list(headers))

    def handle_error_response(self, request, error):
        # An error for a client that asked for form_post goes back the same way (OAuth 2.0 Form
        # Post Response Mode §2); everything else as Authlib does: a redirect with error=... when
        # the redirect URI is known to be registered, else a plain 400 (rendered as HTML by the
        # authorization endpoint).
        client = self.query_client(request.payload.client_id or "")
        if (
            error.redirect_uri
            and response_mode_of(request) == "form_post"
            and client is not None
            and "form_post" in client.response_modes
        ):
            return form_post_page(error.redirect_uri, error.get_body())
        return super().handle_error_response(request, error)


class CodeGrant(grants.AuthorizationCodeGrant):
    TOKEN_ENDPOINT_AUTH_METHODS = ["client_secret_basic", "client_secret_post"]

    @property
    def provider(self) -> Provider:
        return self.server.provider

    @staticmethod
    def validate_authorization_redirect_uri(request, client):
        # OpenID Connect: redirect_uri is required and must exactly match a registered one. Both
        # errors are shown to the user, never sent to the unverified URI.
        redirect_uri = request.payload.redirect_uri
        if not redirect_uri:
            raise InvalidRequestError("Missing 'redirect_uri' in request.")
        if not client.check_redirect_uri(redirect_uri):
            raise InvalidRequestError("The 'redirect_uri' is not registered for this client.")
        return redirect_uri

    def save_authorization_code(self, code, request):
        data = request.payload.data
        self.provider.codes[code] = AuthorizationCode(
            code=code,
            client_id=request.client.client_id,
            redirect_uri=request.payload.redirect_uri,
            scope=request.scope,
            user_id=request.user.id,
            nonce=data.get("nonce"),
            code_challenge=data.get("code_challenge"),
            code_challenge_method=data.get("code_challenge_method"),
            issued_at=time.time(),
            auth_time=int(time.time()),
        )

    def query_authorization_code(self, code, client):
        """A code is good for one token request: any request that presents it for its own client
        uses it up, successful or not. Presenting a used code again revokes the access tokens
        issued for it (RFC 6749 §4.1.2)."""
        item = self.provider.codes.get(code)
        if item is None or item.client_id != client.client_id:
            return None
        if item.used:
            for token in item.access_tokens:
                self.provider.tokens[token].revoked = True
            return None
        item.used = True
        if time.time() - item.issued_at >= self.provider.code_ttl:
            return None
        return item

    def delete_authorization_code(self, authorization_code):
        pass  # already marked as used in query_authorization_code

    def authenticate_user(self, authorization_code):
        return self.provider.users.get(authorization_code.user_id)

    def create_authorization_response(self, redirect_uri, grant_user):
        if not grant_user:
            raise AccessDeniedError(redirect_uri=redirect_uri)
        self.request.user = grant_user
        code = self.generate_authorization_code()
        self.save_authorization_code(code, self.request)

        params = [("code", code)]
        if self.request.payload.state:
            params.append(("state", self.request.payload.state))
        client: Client = self.request.client
        if client.apple_style:
            user_field = self.provider.apple_user_field(client, grant_user, self.request.scope)
            if user_field:
                params.append(("user", user_field))
        if response_mode_of(self.request) == "form_post":
            page = form_post_page(redirect_uri, params)
            return page.status, page.body, page.headers
        return 302, "", [("Location", add_params_to_uri(redirect_uri, params))]


class StrictCodeChallenge(CodeChallenge):
    """PKCE as this provider wants it: a code_challenge with method S256 in every request."""

    SUPPORTED_CODE_CHALLENGE_METHOD = ["S256"]

    def validate_code_challenge(self, grant, redirect_uri):
        data = grant.request.payload.data
        if not data.get("code_challenge"):
            raise InvalidRequestError("Missing 'code_challenge' (PKCE is required).")
        if data.get("code_challenge_method") != "S256":
            raise InvalidRequestError("'code_challenge_method' must be S256.")
        super().validate_code_challenge(grant, redirect_uri)


class OpenIDRequirements:
    """Extension: the authorization request must be an OpenID one with state and a response mode
    the client accepts (Apple-style clients accept form_post only)."""

    def __call__(self, grant):
        grant.register_hook("after_validate_authorization_request_payload", self.validate)

    @staticmethod
    def validate(grant, redirect_uri):
        request = grant.request
        if "openid" not in (request.payload.scope or "").split():
            raise InvalidScopeError("The scope must contain 'openid'.")
        if not request.payload.state:
            raise InvalidRequestError("Missing 'state' in request.")
        mode = response_mode_of(request)
        if mode not in request.client.response_modes:
            raise InvalidRequestError(
                f"'response_mode={mode}' is not allowed for this client "
                f"(allowed: {', '.join(request.client.response_modes)})."
            )


class ProviderOpenIDCode(OpenIDCode):
    """Authlib's OpenID Connect extension for the code grant, with the ID token made here so that
    the control modes can spoil it."""

    def exists_nonce(self, nonce, request):
        provider: Provider = request_provider(request)
        client_id = request.payload.client_id
        return any(c.nonce == nonce and c.client_id == client_id for c in provider.codes.values())

    def generate_user_info(self, user, scope):
        return {}

    def encode_id_token(self, token, request):
        provider: Provider = request_provider(request)
        return provider.make_id_token(request.client, request.user, request.authorization_code, token)


def request_provider(request) -> Provider:
    return request.provider  # set by the HTTP handler on every request


# ----------------------------------------------------------------------------------------------
# The provider
# ----------------------------------------------------------------------------------------------


class Provider:
    def __init__(self, issuer: str, config: dict):
        self.issuer = issuer.rstrip("/")
        self.users: dict[str, User] = config["users"]
        self.clients: dict[str, Client] = config["clients"]
        for client in self.clients.values():
            client.issuer = self.issuer
        self.default_code_ttl = config["code_ttl"]
        self.code_ttl = self.default_code_ttl
        self.access_token_ttl = config["access_token_ttl"]
        self.id_token_ttl = config["id_token_ttl"]
        self.keys = KeyStore()
        self.mode = "normal"
        self.codes: dict[str, AuthorizationCode] = {}
        self.tokens: dict[str, AccessToken] = {}
        self.first_logins: set[tuple[str, str]] = set()
        self.counts: Counter = Counter()
        self.lock = threading.RLock()
        self.server = Server(self)
        # Check our own discovery document with Authlib's validator.
        OpenIDProviderMetadata(self.discovery()).validate()

    # -- documents ---------------------------------------------------------------------------

    def discovery(self) -> dict:
        return {
            "issuer": self.issuer,
            "authorization_endpoint": f"{self.issuer}/authorize",
            "token_endpoint": f"{self.issuer}/token",
            "jwks_uri": f"{self.issuer}/jwks",
            "userinfo_endpoint": f"{self.issuer}/userinfo",
            "scopes_supported": ["openid", "email", "profile", "name"],
            "response_types_supported": ["code"],
            "response_modes_supported": ["query", "form_post"],
            "grant_types_supported": ["authorization_code"],
            "subject_types_supported": ["public"],
            "id_token_signing_alg_values_supported": list(SIGNING_ALGS),
            "code_challenge_methods_supported": ["S256"],
            "token_endpoint_auth_methods_supported": ["client_secret_post", "client_secret_basic"],
            "claims_supported": [
                "iss", "sub", "aud", "exp", "iat", "auth_time", "nonce", "at_hash",
                "email", "email_verified", "name", "given_name", "family_name",
            ],
        }

    def control_state(self) -> dict:
        return {
            "mode": self.mode,
            "modes": MODES,
            "code_ttl": self.code_ttl,
            "kids": self.keys.kids(),
            "redirect_uris": {c.client_id: c.redirect_uris for c in self.clients.values()},
        }

    # -- claims and tokens -------------------------------------------------------------------

    def user_claims(self, client: Client, user: User, scope: str, for_id_token: bool) -> dict:
        """The user's claims that the scope grants: email and email_verified for "email", the
        names for "profile" (Apple-style: never names in the ID token, a string email_verified)."""
        scopes = set(scope.split())
        claims = {}
        if "email" in scopes and user.email:
            claims["email"] = user.email
            verified = user.email_verified
            claims["email_verified"] = ("true" if verified else "false") if client.apple_style and for_id_token else verified
        if "profile" in scopes and not (client.apple_style and for_id_token):
            claims["name"] = user.name
            if user.given_name:
                claims["given_name"] = user.given_name
            if user.family_name:
                claims["family_name"] = user.family_name
        return claims

    def apple_user_field(self, client: Client, user: User, scope: str) -> str | None:
        """Apple sends the user's name (scope "name") and email (scope "email") once: as a JSON
        form field `user` in the first authorization response for that user and client."""
        key = (client.client_id, user.id)
        if key in self.first_logins:
            return None
        self.first_logins.add(key)
        scopes = set(scope.split())
        info = {}
        if "name" in scopes:
            info["name"] = {"firstName": user.given_name or user.name, "lastName": user.family_name}
        if "email" in scopes and user.email:
            info["email"] = user.email
        return json.dumps(info) if info else None

    def make_id_token(self, client: Client, user: User, code: AuthorizationCode, token: dict) -> str:
        """The ID token for a token response, spoilt as the current control mode says."""
        alg = client.id_token_signed_response_alg
        now = int(time.time())
        claims = {
            "iss": self.issuer,
            "sub": user.sub,
            "aud": client.client_id,
            "exp": now + self.id_token_ttl,
            "iat": now,
            "auth_time": code.auth_time,
        }
        if code.nonce:
            claims["nonce"] = code.nonce
        at_hash = create_half_hash(token["access_token"], alg)
        if at_hash is not None:
            claims["at_hash"] = at_hash.decode()
        claims.update(self.user_claims(client, user, token.get("scope", ""), for_id_token=True))

        mode = self.mode
        if mode == "wrong_audience":
            claims["aud"] = OTHER_AUDIENCE
        elif mode == "expired":
            claims["iat"] = now - 7200
            claims["auth_time"] = now - 7200
            claims["exp"] = now - 3600
        elif mode == "wrong_nonce":
            claims["nonce"] = "not-" + secrets.token_urlsafe(12)
        elif mode == "wrong_issuer":
            claims["iss"] = IMPOSTOR_ISSUER
        elif mode == "alg_none":
            return unsigned_jwt(claims)

        key = self.keys.current[alg]
        kid = key.kid
        if mode == "forge_signature":
            key = self.keys.forged[alg]  # same kid as the published key, different key
        elif mode == "unknown_kid":
            key = self.keys.forged[alg]
            kid = "unknown-" + secrets.token_hex(4)
        return jwt.encode({"alg": alg, "kid": kid}, claims, key, algorithms=[alg])

    # -- control -------------------------------------------------------------------------------

    def control(self, body: dict) -> dict:
        """Applies a POST /control body; raises ValueError on a bad one."""
        if not isinstance(body, dict):
            raise ValueError("the body must be a JSON object")
        unknown = set(body) - {"mode", "code_ttl", "redirect_uris"}
        if unknown:
            raise ValueError(f"unknown field(s): {', '.join(sorted(unknown))}")
        if "mode" in body:
            mode = body["mode"]
            if mode not in MODES:
                raise ValueError(f"unknown mode {mode!r} (known: {', '.join(MODES)})")
            if mode == "rotate_keys":
                self.keys.rotate()
                mode = "normal"
            self.mode = mode
        if "code_ttl" in body:
            ttl = body["code_ttl"]
            if not isinstance(ttl, (int, float)) or ttl < 0:
                raise ValueError("code_ttl must be a number of seconds >= 0")
            self.code_ttl = ttl
        if "redirect_uris" in body:
            for client_id, uris in body["redirect_uris"].items():
                if client_id not in self.clients:
                    raise ValueError(f"unknown client {client_id!r}")
                self.clients[client_id].redirect_uris = [uris] if isinstance(uris, str) else list(uris)
        return self.control_state()

    def reset(self):
        self.mode = "normal"
        self.code_ttl = self.default_code_ttl
        self.counts.clear()
        self.first_logins.clear()


# ----------------------------------------------------------------------------------------------
# HTTP
# ----------------------------------------------------------------------------------------------

PAGE_STYLE = (
    "body{font-family:system-ui,sans-serif;max-width:32rem;margin:2rem auto;padding:0 1rem}"
    "button{display:block;width:100%;margin:.5rem 0;padding:.6rem;font-size:1rem}"
)


def html_page(title: str, body: str, status: int = 200) -> Response:
    page = (
        f'<!doctype html>\n<html lang="en">\n<head><meta charset="utf-8">'
        f"<title>{html.escape(title)}</title><style>{PAGE_STYLE}</style></head>\n"
        f"<body>\n{body}\n</body>\n</html>\n"
    )
    return Response(status, page.encode(), [("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-store")])


def json_response(obj, status: int = 200, headers: list | None = None) -> Response:
    return Response(
        status,
        json.dumps(obj, indent=1).encode(),
        [("Content-Type", "application/json"), ("Cache-Control", "no-store"), *(headers or [])],
    )


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "TestOIDCProvider/1"
    provider: Provider  # set on the subclass made in main()
    verbose = False

    # -- plumbing ------------------------------------------------------------------------------

    def do_GET(self):
        self._handle("GET")

    def do_POST(self):
        self._handle("POST")

    def log_message(self, format, *args):
        if self.verbose:
            super().log_message(format, *args)

    def _handle(self, method: str):
        parts = urlsplit(self.path)
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        prefix = urlsplit(self.provider.issuer).path.rstrip("/")
        path = parts.path
        if prefix and (path == prefix or path.startswith(prefix + "/")):
            path = path[len(prefix):]
        try:
            with self.provider.lock:
                response = self.route(method, path or "/", parts.query, body)
        except Exception as error:  # a bug here must show up in the test, not hang it
            traceback.print_exc()
            response = json_response({"error": "server_error", "error_description": repr(error)}, 500)
        self.send_response(response.status)
        for name, value in response.headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(response.body)))
        self.end_headers()
        self.wfile.write(response.body)

    def _form(self, body: bytes) -> list[tuple[str, str]]:
        content_type = (self.headers.get("Content-Type") or "").split(";")[0].strip()
        if content_type != "application/x-www-form-urlencoded":
            return []
        return parse_qsl(body.decode("utf-8", "replace"), keep_blank_values=True)

    def _request(self, method: str, pairs) -> HttpRequest:
        origin = "{0.scheme}://{0.netloc}".format(urlsplit(self.provider.issuer))
        request = HttpRequest(method, origin + self.path, self.headers, pairs)
        request.provider = self.provider
        return request

    # -- routes --------------------------------------------------------------------------------

    def route(self, method: str, path: str, query: str, body: bytes) -> Response:
        p = self.provider
        routes = {
            ("GET", "/.well-known/openid-configuration"): lambda: self.discovery(),
            ("GET", "/jwks"): lambda: self.jwks(),
            ("GET", "/authorize"): lambda: self.authorize(parse_qsl(query, keep_blank_values=True)),
            ("POST", "/authorize"): lambda: self.authorize(self._form(body)),
            ("POST", "/token"): lambda: self.token(body),
            ("GET", "/userinfo"): lambda: self.userinfo(),
            ("POST", "/userinfo"): lambda: self.userinfo(),
            ("GET", "/control"): lambda: json_response(p.control_state()),
            ("POST", "/control"): lambda: self.control(body),
            ("POST", "/control/reset"): lambda: self.reset(),
            ("GET", "/control/requests"): lambda: json_response(dict(p.counts)),
        }
        handler = routes.get((method, path))
        if handler is None:
            if any(route_path == path for _, route_path in routes):
                return json_response({"error": "method_not_allowed"}, 405)
            return json_response({"error": "not_found", "path": path}, 404)
        return handler()

    def discovery(self) -> Response:
        self.provider.counts["discovery"] += 1
        return json_response(self.provider.discovery(), headers=[("Access-Control-Allow-Origin", "*")])

    def jwks(self) -> Response:
        self.provider.counts["jwks"] += 1
        response = json_response(self.provider.keys.jwks())
        # Like real providers, allow caching; a relying party must still refetch on an unknown kid.
        response.headers = [("Content-Type", "application/json"), ("Cache-Control", "public, max-age=3600")]
        return response

    def authorize(self, pairs: list[tuple[str, str]]) -> Response:
        """The authorization endpoint. A request without `login`/`deny` is an authorization
        request: validated, then answered with the login form. The form posts the same parameters
        back with `login=USER` (or `deny=1`), which issues the code (or access_denied)."""
        p = self.provider
        fields = dict(pairs)
        submitted = "login" in fields or "deny" in fields
        p.counts["login" if submitted else "authorize"] += 1
        # The login form's own fields are not part of the authorization request.
        request = self._request(self.command, [(k, v) for k, v in pairs if k not in ("login", "deny")])
        user = None
        if submitted and "deny" not in fields:
            user = p.users.get(fields["login"])
            if user is None:
                return html_page("Unknown user", "<h1>Unknown user</h1>", 400)
        try:
            grant = p.server.get_consent_grant(request, end_user=user)
        except OAuth2Error as error:
            return self.authorization_error(request, error)
        if not submitted:
            return self.login_page(request)
        response = p.server.create_authorization_response(request, grant_user=user, grant=grant)
        if response.status >= 400:
            return self.authorization_error_page(response)
        return response

    def authorization_error(self, request: HttpRequest, error: OAuth2Error) -> Response:
        response = self.provider.server.handle_error_response(request, error)
        if response.status >= 400:
            return self.authorization_error_page(response)
        return response

    @staticmethod
    def authorization_error_page(response: Response) -> Response:
        """An error that cannot go back to a verified redirect URI is shown to the user."""
        try:
            error = json.loads(response.body)
        except ValueError:
            error = {"error": "invalid_request"}
        body = (
            "<h1>Sign-in request refused</h1>\n"
            f'<p id="error">{html.escape(str(error.get("error", "")))}</p>\n'
            f'<p id="error-description">{html.escape(str(error.get("error_description", "")))}</p>'
        )
        return html_page("Sign-in request refused", body, 400)

    def login_page(self, request: HttpRequest) -> Response:
        client = request.client
        hidden = "\n".join(
            f'  <input type="hidden" name="{html.escape(k)}" value="{html.escape(v)}">'
            for k, values in request.payload.datalist.items()
            for v in values
        )
        buttons = "\n".join(
            f'  <button type="submit" name="login" value="{html.escape(u.id)}" id="login-{html.escape(u.id)}">'
            f"{html.escape(u.label())}</button>"
            for u in self.provider.users.values()
        )
        action = urlsplit(self.provider.issuer).path.rstrip("/") + "/authorize"
        body = (
            "<h1>Test OpenID provider</h1>\n"
            f"<p>Sign in to <strong>{html.escape(client.name)}</strong> as:</p>\n"
            f'<form method="post" action="{html.escape(action)}">\n{hidden}\n{buttons}\n'
            '  <button type="submit" name="deny" value="1" id="deny">Cancel</button>\n</form>'
        )
        return html_page("Sign in – test OpenID provider", body)

    def token(self, body: bytes) -> Response:
        p = self.provider
        p.counts["token"] += 1
        request = self._request("POST", self._form(body))
        response = p.server.create_token_response(request)
        if response.status == 200:
            p.counts[f"token_auth_{request.auth_method}"] += 1
        else:
            p.counts["token_errors"] += 1
        return response

    def userinfo(self) -> Response:
        p = self.provider
        p.counts["userinfo"] += 1
        auth = self.headers.get("Authorization") or ""
        scheme, _, value = auth.partition(" ")
        token = p.tokens.get(value.strip()) if scheme.lower() == "bearer" else None
        if token is None or token.revoked or token.expires_at <= time.time():
            return json_response(
                {"error": "invalid_token"}, 401, [("WWW-Authenticate", 'Bearer error="invalid_token"')]
            )
        client = p.clients[token.client_id]
        user = p.users[token.user_id]
        return json_response({"sub": user.sub, **p.user_claims(client, user, token.scope, for_id_token=False)})

    def control(self, body: bytes) -> Response:
        try:
            return json_response(self.provider.control(json.loads(body or b"{}")))
        except ValueError as error:
            return json_response({"error": str(error)}, 400)

    def reset(self) -> Response:
        self.provider.reset()
        return json_response(self.provider.control_state())


def main(argv: list[str] | None = None):
    parser = argparse.ArgumentParser(description="Local OpenID Connect provider for end-to-end tests.")
    parser.add_argument("--port", type=int, default=0, help="port to listen on (0: a free one)")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--issuer", help="issuer URL (default http://HOST:PORT)")
    parser.add_argument(
        "--config",
        type=Path,
        default=Path(os.environ.get("OIDC_PROVIDER_CONFIG") or DEFAULT_CONFIG),
        help="JSON file with users and clients (default: $OIDC_PROVIDER_CONFIG or config.json here)",
    )
    parser.add_argument(
        "--redirect-uri",
        action="append",
        default=[],
        metavar="CLIENT_ID=URI",
        help="replace a client's registered redirect URIs (repeatable)",
    )
    parser.add_argument("--verbose", action="store_true", help="log every request on stderr")
    args = parser.parse_args(argv)

    overrides: dict[str, list[str]] = defaultdict(list)
    for item in args.redirect_uri:
        client_id, sep, uri = item.partition("=")
        if not sep or not uri:
            parser.error(f"--redirect-uri wants CLIENT_ID=URI, got {item!r}")
        overrides[client_id].append(uri)
    config = load_config(args.config, overrides)

    class BoundHandler(Handler):
        pass

    httpd = ThreadingHTTPServer((args.host, args.port), BoundHandler)
    httpd.daemon_threads = True
    port = httpd.server_address[1]
    host = args.host if ":" not in args.host else f"[{args.host}]"
    BoundHandler.provider = Provider(args.issuer or f"http://{host}:{port}", config)
    BoundHandler.verbose = args.verbose
    print(f"READY {port}", flush=True)
    try:
        httpd.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        httpd.server_close()


if __name__ == "__main__":
    sys.exit(main())
