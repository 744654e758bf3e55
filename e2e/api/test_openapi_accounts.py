"""Accounts on /api/v1: sign-up, sign-in, profile; guests, upgrade and logout; rate limits and password reset by mail.

Every real response is checked against Public/openapi.json (conftest.SpecChecker).
"""

from __future__ import annotations

import email.policy
import re
from datetime import datetime, timedelta, timezone

from conftest import Api, PASSWORD, unique_mail
from openapi_helpers import (
    ENGLISH_GUEST_NAME,
    GUEST,
    GUEST_NAME,
    LOGOUT,
    RESET,
    RESET_CONFIRM,
    SETTINGS,
    STACKS,
    UPGRADE,
    V1,
    code,
    parse_date,
)


def test_v1_account_story(api: Api):
    mail = unique_mail("konto")
    signup = {"name": "  Mara Beispiel ", "mail": mail, "password": PASSWORD, "timeZone": "Europe/Berlin"}
    # A stale token on signup is ignored.
    _, auth = api.call("POST", V1 + "/auth/signup", json_body=signup, token="garbage", expect=201)
    token = auth["token"]
    assert auth["user"]["name"] == "Mara Beispiel"
    assert auth["user"]["mail"] == mail and auth["user"]["timeZone"] == "Europe/Berlin"
    expires = parse_date(auth["expiresAt"]) - datetime.now(timezone.utc)
    assert timedelta(days=6, hours=23) < expires <= timedelta(days=7, minutes=1)

    # Signup errors: taken mail (any case), bad fields, bad JSON.
    _, body = api.call("POST", V1 + "/auth/signup", json_body={**signup, "mail": mail.upper()}, expect=409)
    assert code(body) == "user_already_exists"
    for bad, expected in (
        ({**signup, "mail": unique_mail(), "password": "kurz"}, "validation_failed"),
        ({**signup, "mail": "keine-adresse"}, "validation_failed"),
        ({**signup, "mail": unique_mail(), "timeZone": "Mars/Olympus"}, "unknown_time_zone"),
        ({**signup, "mail": unique_mail(), "name": "   "}, "validation_failed"),
        ({**signup, "mail": unique_mail(), "name": "x" * 101}, "validation_failed"),
        ({**signup, "mail": unique_mail(), "password": "ü" * 40}, "password_too_long"),  # 80 bytes > 72
    ):
        _, body = api.call("POST", V1 + "/auth/signup", json_body=bad, expect=400)
        assert code(body) == expected, bad
    for raw in (b"", b"{", b"[]", b'{"name":"x","mail":"a@b.de"}', b'{"name":1,"mail":"a@b.de","password":"12345678"}'):
        _, body = api.call("POST", V1 + "/auth/signup", data=raw, expect=400)
        assert code(body) == "malformed_json", raw
        assert body["message"], "a malformed body needs a clear message"

    # Login: good (mail case-insensitive), wrong password, unknown account, empty fields.
    _, login = api.call("POST", V1 + "/auth/login", json_body={"mail": mail.upper(), "password": PASSWORD}, expect=200)
    assert login["user"]["id"] == auth["user"]["id"]
    _, body = api.call("POST", V1 + "/auth/login", json_body={"mail": mail, "password": "falsch-falsch"}, expect=401)
    assert code(body) == "wrong_password" and body["message"] == "WRONG_PASSWORD"
    _, body = api.call("POST", V1 + "/auth/login", json_body={"mail": unique_mail(), "password": PASSWORD}, expect=401)
    assert code(body) == "user_not_found"
    _, body = api.call("POST", V1 + "/auth/login", json_body={"mail": "", "password": PASSWORD}, expect=400)
    assert code(body) == "validation_failed"
    _, body = api.call("POST", V1 + "/auth/login", data=b"mail=x", expect=400)
    assert code(body) == "malformed_json"

    # /me with Bearer and with the raw token; 401 for missing, garbage and empty tokens.
    _, me = api.call("GET", V1 + "/me", token=token, expect=200)
    assert me == auth["user"]
    api.call("GET", V1 + "/me", token=token, raw_token=True, expect=200)
    for bad_token in (None, "garbage", "", token[:-4] + "AAAA", "a.b.c"):
        _, body = api.call("GET", V1 + "/me", token=bad_token, expect=401)
        assert code(body) == "unauthorized"

    # PATCH /me.
    _, me = api.call(
        "PATCH", V1 + "/me", token=token, json_body={"name": "Mara B.", "timeZone": "Asia/Tokyo"}, expect=200
    )
    assert me["name"] == "Mara B." and me["timeZone"] == "Asia/Tokyo" and me["id"] == auth["user"]["id"]
    _, me = api.call("PATCH", V1 + "/me", token=token, json_body={}, expect=200)
    assert me["name"] == "Mara B."
    for bad, expected in (
        ({"timeZone": "Nowhere/City"}, "unknown_time_zone"),
        ({"name": " "}, "validation_failed"),
        ({"name": "y" * 101}, "validation_failed"),
    ):
        _, body = api.call("PATCH", V1 + "/me", token=token, json_body=bad, expect=400)
        assert code(body) == expected, bad
    _, body = api.call("PATCH", V1 + "/me", token=token, json_body={"name": 5}, expect=400)
    assert code(body) == "malformed_json"
    api.call("PATCH", V1 + "/me", json_body={"name": "Nobody"}, expect=401)

    # Password change: wrong current, too short new, then success; older tokens stop working.
    path = V1 + "/me/password"
    _, body = api.call(
        "POST",
        path,
        token=token,
        json_body={"currentPassword": "nope-nope", "newPassword": "neu-und-lang-1"},
        expect=403,
    )
    assert code(body) == "wrong_password"
    _, body = api.call(
        "POST", path, token=token, json_body={"currentPassword": PASSWORD, "newPassword": "kurz"}, expect=400
    )
    assert code(body) == "validation_failed"
    _, body = api.call("POST", path, token=token, json_body={"currentPassword": PASSWORD}, expect=400)
    assert code(body) == "malformed_json"
    api.call("POST", path, json_body={"currentPassword": PASSWORD, "newPassword": "neu-und-lang-1"}, expect=401)
    api.call(
        "POST", path, token=token, json_body={"currentPassword": PASSWORD, "newPassword": "neu-und-lang-1"}, expect=204
    )
    api.call("GET", V1 + "/me", token=token, expect=401)
    api.call("GET", V1 + "/me", token=login["token"], expect=401)
    _, login = api.call("POST", V1 + "/auth/login", json_body={"mail": mail, "password": "neu-und-lang-1"}, expect=200)
    token = login["token"]

    # Account deletion: needs the password; afterwards the token and the login are gone.
    _, body = api.call("DELETE", V1 + "/me", token=token, json_body={"password": PASSWORD}, expect=403)
    assert code(body) == "wrong_password"
    _, body = api.call("DELETE", V1 + "/me", token=token, expect=400)
    assert code(body) == "malformed_json"
    api.call("DELETE", V1 + "/me", json_body={"password": "neu-und-lang-1"}, expect=401)
    api.call("DELETE", V1 + "/me", token=token, json_body={"password": "neu-und-lang-1"}, expect=204)
    api.call("GET", V1 + "/me", token=token, expect=401)
    api.call("DELETE", V1 + "/me", token=token, json_body={"password": "neu-und-lang-1"}, expect=401)
    _, body = api.call("POST", V1 + "/auth/login", json_body={"mail": mail, "password": "neu-und-lang-1"}, expect=401)
    assert code(body) == "user_not_found"


def test_v1_guest_upgrade_and_logout_story(api: Api):
    # A guest: no body, an empty body, a time zone, a null time zone.
    _, guest = api.call("POST", GUEST, expect=201)
    assert guest["user"]["isGuest"] is True and guest["user"]["mail"] == ""
    assert GUEST_NAME.match(guest["user"]["name"]), guest["user"]["name"]
    expires = parse_date(guest["expiresAt"]) - datetime.now(timezone.utc)
    assert timedelta(days=6, hours=23) < expires <= timedelta(days=7, minutes=1)
    _, me = api.call("GET", V1 + "/me", token=guest["token"], expect=200)
    assert me == guest["user"]
    _, empty = api.call("POST", GUEST, data=b"", expect=201)
    assert empty["user"]["isGuest"] is True and empty["user"]["id"] != guest["user"]["id"]
    # A stale token is ignored, as at signup.
    _, tokyo = api.call("POST", GUEST, token="garbage", json_body={"timeZone": "Asia/Tokyo"}, expect=201)
    assert tokyo["user"]["timeZone"] == "Asia/Tokyo" and tokyo["user"]["mail"] == ""
    _, default_zone = api.call("POST", GUEST, json_body={"timeZone": None}, expect=201)
    assert default_zone["user"]["timeZone"] == guest["user"]["timeZone"]
    _, body = api.call("POST", GUEST, json_body={"timeZone": "Mars/Olympus"}, expect=400)
    assert code(body) == "unknown_time_zone"
    for raw in (b"{", b"[]", b'{"timeZone": 5}', b"null", b'{"language": 1}'):
        _, body = api.call("POST", GUEST, data=raw, expect=400)
        assert code(body) == "malformed_json", raw
    # In the interface language: an English name, and the account's language is English.
    _, english = api.call("POST", GUEST, json_body={"language": "en"}, expect=201)
    assert ENGLISH_GUEST_NAME.match(english["user"]["name"]), english["user"]["name"]
    _, english_settings = api.call("GET", SETTINGS, token=english["token"], expect=200)
    assert english_settings["language"] == "en"
    _, body = api.call("POST", GUEST, json_body={"language": "fr"}, expect=400)
    assert code(body) == "validation_failed" and body["message"]

    # A guest studies like anyone: a stack of its own.
    token = tokyo["token"]
    _, stack = api.call("POST", STACKS, token=token, json_body={"name": "Gaststapel", "color": "#10B981"}, expect=201)

    # Upgrade errors: no token, bad fields, a missing field, a taken mail (in any case).
    taken = api.signup("Vergeben")
    mail = unique_mail("gast")
    good = {"name": "Gerda Gast", "mail": mail, "password": PASSWORD}
    api.call("POST", UPGRADE, json_body=good, expect=401)
    for bad in (
        {**good, "mail": "keine-adresse"},
        {**good, "password": "kurz"},
        {**good, "name": "   "},
        {**good, "name": "x" * 101},
    ):
        _, body = api.call("POST", UPGRADE, token=token, json_body=bad, expect=400)
        assert code(body) == "validation_failed", bad
    _, body = api.call("POST", UPGRADE, token=token, json_body={"mail": mail}, expect=400)
    assert code(body) == "malformed_json"
    _, body = api.call("POST", UPGRADE, token=token, json_body={**good, "mail": taken["mail"].upper()}, expect=409)
    assert code(body) == "user_already_exists"
    api.call("GET", V1 + "/me", token=token, expect=200)  # nothing changed

    # The upgrade: same account and stack, a new token; the guest's token is refused from now on.
    _, upgraded = api.call("POST", UPGRADE, token=token, json_body=good, expect=200)
    user = upgraded["user"]
    assert user["id"] == tokyo["user"]["id"] and user["isGuest"] is False
    assert (user["mail"], user["name"], user["timeZone"]) == (mail, "Gerda Gast", "Asia/Tokyo")
    assert user["createdAt"] == tokyo["user"]["createdAt"]
    _, body = api.call("GET", V1 + "/me", token=token, expect=401)
    assert code(body) == "unauthorized"
    first = upgraded["token"]
    _, stacks = api.call("GET", STACKS, token=first, expect=200)
    assert [s["id"] for s in stacks] == [stack["id"]]
    _, body = api.call("POST", UPGRADE, token=first, json_body={**good, "mail": unique_mail("nochmal")}, expect=409)
    assert code(body) == "not_a_guest" and body["message"]
    _, body = api.call("POST", UPGRADE, token=taken["token"], json_body={**good, "mail": unique_mail()}, expect=409)
    assert code(body) == "not_a_guest"
    # The guest name stays when no name is sent.
    _, kept = api.call(
        "POST", UPGRADE, token=empty["token"], json_body={"mail": unique_mail("gast"), "password": PASSWORD}, expect=200
    )
    assert kept["user"]["name"] == empty["user"]["name"] and kept["user"]["isGuest"] is False

    # Logout revokes only the token it was sent with; the mail and password now sign in.
    _, login = api.call("POST", V1 + "/auth/login", json_body={"mail": mail, "password": PASSWORD}, expect=200)
    second = login["token"]
    assert login["user"]["id"] == user["id"] and login["user"]["isGuest"] is False
    api.call("POST", LOGOUT, expect=401)
    _, body = api.call("POST", LOGOUT, token=first, expect=204)
    assert body is None
    api.call("GET", V1 + "/me", token=first, expect=401)
    api.call("GET", STACKS, token=first, expect=401)
    api.call("POST", LOGOUT, token=first, expect=401)
    _, me = api.call("GET", V1 + "/me", token=second, expect=200)
    assert me["id"] == user["id"] and me["mail"] == mail
    # The upgraded account needs its password to be deleted, like any account.
    _, body = api.call("DELETE", V1 + "/me", token=second, json_body={}, expect=403)
    assert code(body) == "wrong_password"

    # A guest account is deleted without a password.
    _, body = api.call("DELETE", V1 + "/me", token=guest["token"], expect=400)
    assert code(body) == "malformed_json"
    api.call("DELETE", V1 + "/me", token=guest["token"], json_body={}, expect=204)
    api.call("GET", V1 + "/me", token=guest["token"], expect=401)
    api.call("DELETE", V1 + "/me", token=default_zone["token"], json_body={"password": ""}, expect=204)
    api.call("GET", V1 + "/me", token=default_zone["token"], expect=401)


def test_login_limit_answers_429_with_retry_after(limited_server, checker):
    api = Api(limited_server, checker)
    account = api.signup()
    wrong = {"mail": account["mail"], "password": "falsch-falsch"}
    for _ in range(3):
        _, body = api.call("POST", V1 + "/auth/login", json_body=wrong, expect=401)
        assert code(body) == "wrong_password"
    for path in (V1 + "/auth/login", "/login"):
        for password in ("falsch-falsch", PASSWORD):
            response, body = api.call(
                "POST", path, json_body={"mail": account["mail"], "password": password}, expect=429
            )
            assert code(body) == "too_many_attempts"
            assert 1 <= int(response.headers["Retry-After"]) <= 900
    # The client address has a limit of its own, higher (5 on this server): another account still
    # signs in from it, until the address has failed five times in all.
    other = api.signup()
    api.call("POST", "/login", json_body={"mail": other["mail"], "password": PASSWORD}, expect=200)
    for _ in range(2):
        api.call("POST", V1 + "/auth/login", json_body={"mail": other["mail"], "password": "falsch"}, expect=401)
    third = api.signup()
    response, body = api.call("POST", "/login", json_body={"mail": third["mail"], "password": PASSWORD}, expect=429)
    assert code(body) == "too_many_attempts"
    # Signed-in work goes on.
    api.call("GET", V1 + "/me", token=account["token"], expect=200)


def test_guest_limit_answers_429_with_retry_after(limited_server, checker):
    """20 guest accounts an hour per client address; the 21st is refused until the hour has passed."""
    api = Api(limited_server, checker)
    made = 0
    while True:
        response, body = api.call("POST", GUEST)
        if response.status_code == 429:
            break
        assert response.status_code == 201 and made < 20, response.text
        made += 1
    assert made == 20
    assert code(body) == "too_many_attempts" and body["message"]
    assert 1 <= int(response.headers["Retry-After"]) <= 3600
    api.call("POST", GUEST, json_body={"timeZone": "Europe/Berlin"}, expect=429)
    # Signing up and in is not limited by it.
    account = api.signup()
    api.call("GET", V1 + "/me", token=account["token"], expect=200)


def test_signup_limit_answers_429_with_retry_after(limited_server, checker):
    """Six sign-ups an hour per client address on this server (the stories before used some of them);
    past that 429 with Retry-After, on both APIs."""
    api = Api(limited_server, checker)
    while True:
        body = {"name": "Viele Konten", "mail": unique_mail(), "password": PASSWORD}
        response, answer = api.call("POST", V1 + "/auth/signup", json_body=body)
        if response.status_code == 429:
            break
        assert response.status_code == 201, response.text
    assert code(answer) == "too_many_attempts" and answer["message"]
    assert 1 <= int(response.headers["Retry-After"]) <= 3600
    api.call("POST", "/signup", json_body=body, expect=429)


def test_v1_password_reset_story(mailing_server, server, checker, mail_sink):
    """A link by mail (read from the SMTP sink), used once; the same 202 for unknown addresses; the limit per
    address; a server without mail settings says the feature is unavailable."""
    api = Api(mailing_server, checker)
    _, body = api.call("GET", RESET, expect=200)
    assert body == {"available": True}
    account = api.signup()
    api.call("POST", RESET, json_body={"mail": account["mail"].upper(), "language": "en"}, expect=202)
    api.call("POST", RESET, json_body={"mail": unique_mail("niemand")}, expect=202)
    for bad in ({"mail": ""}, {"mail": account["mail"], "language": "fr"}, {"mail": 1}, {}):
        _, body = api.call("POST", RESET, json_body=bad, expect=400)
        assert code(body) in ("validation_failed", "malformed_json")

    message = email.message_from_bytes(mail_sink.wait_for(account["mail"]), policy=email.policy.default)
    assert message["Subject"] == "Reset your password – Smart Flashcards"
    text = message.get_content()
    assert "Hello Mara Beispiel," in text
    token = re.search(r"https://cards\.example\.org/app/reset\?token=([A-Za-z0-9_-]{43})", text).group(1)

    _, body = api.call("POST", RESET_CONFIRM, json_body={"token": token, "newPassword": "kurz"}, expect=400)
    assert code(body) == "validation_failed"
    _, body = api.call("POST", RESET_CONFIRM, json_body={"token": token, "newPassword": "ganz-neu-42"}, expect=200)
    assert body["user"]["mail"] == account["mail"]
    api.call("GET", V1 + "/me", token=body["token"], expect=200)
    api.call("GET", V1 + "/me", token=account["token"], expect=401)
    for again in (token, "x" * 43, "kaputt"):
        _, body = api.call("POST", RESET_CONFIRM, json_body={"token": again, "newPassword": "ganz-neu-42"}, expect=401)
        assert code(body) == "invalid_reset_token"
    api.call("POST", V1 + "/auth/login", json_body={"mail": account["mail"], "password": "ganz-neu-42"}, expect=200)

    # Three requests per address within the hour, whether or not it has an account.
    for mail in (account["mail"], unique_mail("niemand")):
        while True:
            response, body = api.call("POST", RESET, json_body={"mail": mail})
            if response.status_code == 429:
                break
            assert response.status_code == 202
        assert code(body) == "too_many_attempts"
        assert 1 <= int(response.headers["Retry-After"]) <= 3600

    plain = Api(server, checker)
    _, body = plain.call("GET", RESET, expect=200)
    assert body == {"available": False}
    _, body = plain.call("POST", RESET, json_body={"mail": account["mail"]}, expect=503)
    assert code(body) == "password_reset_unavailable"
