"""Starting and steering the test OpenID provider (provider.py) from Python tests.

    from oidc_harness import ProviderProcess

    with ProviderProcess(redirect_uris={"flashcards-school": "http://127.0.0.1:8123/cb"}) as op:
        op.issuer                       # http://127.0.0.1:PORT
        op.control(mode="wrong_audience")
        op.requests()["jwks"]           # how often the JWKS was fetched
        op.reset()

Also: `apple_client_secret(...)`, the ES256 JWT an Apple-style client sends as its client_secret.
Needs Authlib (joserfc comes with it); the provider process runs with the same Python.
"""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

from joserfc import jwt
from joserfc.jwk import ECKey

HERE = Path(__file__).resolve().parent
PROVIDER = HERE / "provider.py"
CONFIG = HERE / "config.json"
APPLE_CLIENT_KEY = HERE / "apple_client_key.p8"


def ensure_apple_client_key() -> Path:
    """The Apple-style client's signing key (a PKCS#8 PEM like Apple's .p8), made on first use and kept
    out of git (.gitignore): no private key lives in the repository."""
    if not APPLE_CLIENT_KEY.exists():
        from cryptography.hazmat.primitives import serialization
        from cryptography.hazmat.primitives.asymmetric import ec

        key = ec.generate_private_key(ec.SECP256R1())
        APPLE_CLIENT_KEY.write_bytes(
            key.private_bytes(
                serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
            )
        )
    return APPLE_CLIENT_KEY


class ProviderProcess:
    """The provider as a subprocess on a free port (or the given one)."""

    def __init__(
        self,
        port: int = 0,
        host: str = "127.0.0.1",
        issuer: str | None = None,
        config: Path | None = None,
        redirect_uris: dict[str, str | list[str]] | None = None,
        log_path: Path | None = None,
        python: str = sys.executable,
    ):
        self.args = [python, str(PROVIDER), "--port", str(port), "--host", host]
        if issuer:
            self.args += ["--issuer", issuer]
        if config:
            self.args += ["--config", str(config)]
        for client_id, uris in (redirect_uris or {}).items():
            for uri in [uris] if isinstance(uris, str) else uris:
                self.args += ["--redirect-uri", f"{client_id}={uri}"]
        self.host = host
        self.issuer_arg = issuer
        self.log_path = log_path
        self.process: subprocess.Popen | None = None
        self._log = None
        self.port: int | None = None

    def start(self, timeout: float = 30) -> ProviderProcess:
        ensure_apple_client_key()
        self._log = open(self.log_path, "ab") if self.log_path else None
        self.process = subprocess.Popen(
            self.args, stdout=subprocess.PIPE, stderr=self._log, text=True, bufsize=1
        )
        lines: queue.Queue = queue.Queue()
        threading.Thread(target=lambda: lines.put(self.process.stdout.readline()), daemon=True).start()
        try:
            line = lines.get(timeout=timeout)
        except queue.Empty:
            self.stop()
            raise RuntimeError("the OpenID provider did not print READY in time") from None
        if not line.startswith("READY "):
            self.stop()
            raise RuntimeError(f"the OpenID provider did not start: {line!r}")
        self.port = int(line.split()[1])
        return self

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.process and self.process.stdout:
            self.process.stdout.close()
        if self._log:
            self._log.close()
            self._log = None

    def __enter__(self) -> ProviderProcess:
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    @property
    def base_url(self) -> str:
        """Where the provider listens (its issuer unless --issuer said otherwise)."""
        return f"http://{self.host}:{self.port}"

    @property
    def issuer(self) -> str:
        return (self.issuer_arg or self.base_url).rstrip("/")

    def _call(self, method: str, path: str, body: dict | None = None) -> dict:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(
            self.issuer + path, data=data, method=method, headers={"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.load(response)

    def control(self, **body) -> dict:
        """POST /control: mode=..., code_ttl=..., redirect_uris={client_id: [...]}."""
        return self._call("POST", "/control", body)

    def state(self) -> dict:
        return self._call("GET", "/control")

    def reset(self) -> dict:
        return self._call("POST", "/control/reset", {})

    def requests(self) -> dict:
        """Request counts: discovery, jwks, authorize, login, token, token_errors, userinfo,
        token_auth_client_secret_basic / token_auth_client_secret_post (missing keys are 0)."""
        return self._call("GET", "/control/requests")


def apple_client_secret(
    client_id: str,
    audience: str,
    team_id: str = "TEAM123456",
    key_id: str = "KEY1234567",
    key_pem: str | bytes | None = None,
    lifetime: int = 3600,
    issued_at: int | None = None,
) -> str:
    """The client secret of an Apple-style client: an ES256 JWT signed with its private key
    (default: apple_client_key.p8 beside this file), kid = key id, iss = team id, sub = client id,
    aud = the provider's issuer."""
    key = ECKey.import_key(key_pem if key_pem is not None else ensure_apple_client_key().read_text())
    now = int(time.time()) if issued_at is None else issued_at
    claims = {"iss": team_id, "sub": client_id, "aud": audience, "iat": now, "exp": now + lifetime}
    return jwt.encode({"alg": "ES256", "kid": key_id}, claims, key, algorithms=["ES256"])
