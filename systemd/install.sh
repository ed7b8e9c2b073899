#!/usr/bin/env bash
# Easel's installer for Raspberry Pi OS trixie or Bookworm (Lite, 64-bit): the Debian packages it needs, the
# `easel` user, a venv in /opt/easel with Easel from the checkout this script is in,
# /etc/easel/appliance.toml (never overwritten), the systemd unit, tty1 taken from getty,
# a quiet boot, optionally a Wi-Fi hotspot for the phones. Re-running it upgrades Easel in
# place and keeps the data (/var/lib/easel) and the settings. The guide: docs/install.md.
set -euo pipefail
# Root's umask may be 077 on a hardened box; the venv and unit must be readable by easel.
umask 022

PROG=install.sh
REPO=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd)

UNIT=easel.service
UNIT_DEST=/etc/systemd/system/easel.service
OPT=/opt/easel
VENV=/opt/easel/venv
SHARE=/opt/easel/share
CONFIG_DIR=/etc/easel
CONFIG=/etc/easel/appliance.toml
STATE=/var/lib/easel
# `easel check-config` etc. on everyone's PATH.
COMMAND_LINK=/usr/local/bin/easel
# The boot arguments this installer added, so --uninstall removes exactly those.
BOOT_RECORD=/opt/easel/boot-args-added
HOTSPOT_CON=easel-hotspot
USER_NAME=easel
GROUPS_NEEDED=(video render input gpio)
# quiet + loglevel=3: no kernel chatter on the screen; logo.nologo: no raspberries;
# vt.global_cursor_default=0: no blinking cursor under the kiosk; consoleblank=0: the
# console never blanks the screen after 10 minutes of no keyboard.
BOOT_ARGS=(quiet loglevel=3 logo.nologo vt.global_cursor_default=0 consoleblank=0)

ACTION=install
DRY_RUN=0
ROOT=""
PROFILE=""
HOTSPOT=0
HOTSPOT_SSID=""
HOTSPOT_PASSWORD=""

usage() {
    cat <<EOF
Usage: sudo systemd/install.sh [--profile NAME] [--hotspot NAME PASSWORD]
       sudo systemd/install.sh --uninstall
       systemd/install.sh --dry-run [...]

Installs Easel on Raspberry Pi OS trixie or Bookworm (Lite) so that the box starts in the lobby by
itself: Debian packages, the user '$USER_NAME', $VENV, $CONFIG, the systemd
unit $UNIT (it takes the screen on tty1 from the login prompt) and a quiet boot.
Run it again to upgrade Easel: the games' data ($STATE) and settings are kept.

Options:
  --profile NAME      start the settings from config/profiles/NAME.toml (or a .toml file):
                      $(profile_names)
                      Only used when $CONFIG does not exist yet.
  --hotspot NAME PASSWORD
                      make a Wi-Fi network NAME (password: 8 to 63 characters) on the Pi
                      for the phones (NetworkManager), and show it as a QR code in the
                      lobby. The Pi's Wi-Fi then serves the hotspot and leaves any other
                      Wi-Fi network.
  --uninstall         stop and remove Easel's service and venv, give tty1 back to the
                      login prompt; keeps the settings and the data
  --dry-run           print every command and file it would write; change nothing
  --root DIR          write every file under DIR instead of /, and print the system
                      commands (apt-get, useradd, systemctl, nmcli) instead of running
                      them (for tests)
  -h, --help          this help
EOF
}

say() { printf '%s: %s\n' "$PROG" "$*"; }
die() {
    printf '%s: error: %s\n' "$PROG" "$*" >&2
    exit 1
}

profile_names() {
    local f names=()
    for f in "$REPO"/config/profiles/*.toml; do
        [ -e "$f" ] && names+=("$(basename "$f" .toml)")
    done
    if [ ${#names[@]} -eq 0 ]; then printf '(none found)'; else printf '%s' "${names[*]}"; fi
}

# True when nothing on this system may be changed by a command: --dry-run, or --root
# (the files go under DIR, the system is left alone).
simulating() { [ "$DRY_RUN" = 1 ] || [ -n "$ROOT" ]; }

# Under --root the system is a fresh Raspberry Pi OS as far as the installer can tell:
# this machine's packages, users and connections say nothing about DIR, so every step
# that depends on them is printed.
fresh() { [ -n "$ROOT" ]; }

# A command line as it could be pasted back into a shell, the Wi-Fi password hidden.
quoted() {
    local arg out=""
    for arg in "$@"; do
        if [ -n "$HOTSPOT_PASSWORD" ] && [ "$arg" = "$HOTSPOT_PASSWORD" ]; then
            arg='<password>'
        elif [[ ! $arg =~ ^[][A-Za-z0-9_./:=,@+%-]+$ ]]; then
            arg="'${arg//\'/\'\\\'\'}'"
        fi
        out+="${out:+ }$arg"
    done
    printf '%s' "$out"
}

# A command that changes the system: printed, and run unless simulating.
run() {
    if simulating; then
        printf 'would run: %s\n' "$(quoted "$@")"
    else
        printf '+ %s\n' "$(quoted "$@")"
        "$@"
    fi
}

# --- files (always under $ROOT; nothing is written in a dry run) ---------------------

make_dir() { # PATH MODE
    local target="$ROOT$1"
    [ -d "$target" ] && return 0
    if [ "$DRY_RUN" = 1 ]; then
        say "would create directory $target"
    else
        mkdir -p "$target"
        chmod "$2" "$target"
    fi
}

# Content on stdin; written through a temporary file so a power cut leaves the old file
# or the new one, never half of one.
write_file() { # PATH MODE WHAT
    local target="$ROOT$1" tmp
    if [ "$DRY_RUN" = 1 ]; then
        cat >/dev/null
        say "would write $target ($3)"
        return 0
    fi
    mkdir -p "$(dirname "$target")"
    tmp=$(mktemp "$target.XXXXXX")
    cat >"$tmp"
    chmod "$2" "$tmp"
    mv -f "$tmp" "$target"
    say "wrote $target ($3)"
}

copy_file() { # SOURCE PATH MODE WHAT
    if [ -f "$ROOT$2" ] && cmp -s "$1" "$ROOT$2"; then
        say "up to date: $ROOT$2"
        return 0
    fi
    write_file "$2" "$3" "$4" <"$1"
}

remove() { # PATH
    local target="$ROOT$1"
    [ -e "$target" ] || [ -L "$target" ] || return 0
    if [ "$DRY_RUN" = 1 ]; then
        say "would remove $target"
    else
        rm -rf -- "$target"
        say "removed $target"
    fi
}

# --- Debian packages ---------------------------------------------------------------

installed() {
    ! fresh && dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'ok installed'
}

available() { fresh || apt-cache show "$1" >/dev/null 2>&1; }

# The python3-evdev Debian has (installed, else the one apt would install), or nothing.
evdev_deb_version() {
    local version
    version=$(dpkg-query -W -f='${Version}' python3-evdev 2>/dev/null || true)
    if [ -z "$version" ]; then
        version=$(apt-cache policy python3-evdev 2>/dev/null | sed -n 's/^ *Candidate: *//p')
    fi
    [ "$version" = "(none)" ] || printf '%s' "$version"
}

# True when pip would have to compile evdev: Debian's is older than pyproject.toml asks.
evdev_needs_build() {
    local want have=""
    want=$(sed -n 's/.*"evdev>=\([0-9.]*\)[",].*/\1/p' "$REPO/pyproject.toml" | head -n 1)
    fresh || have=$(evdev_deb_version)
    [ -n "$want" ] || return 1
    [ -n "$have" ] || return 0
    ! dpkg --compare-versions "$have" ge "$want"
}

PIP_EXTRA=""

install_packages() {
    # python3-lgpio: the GPIO backend (every Pi, the Pi 5 included; Raspberry Pi OS's own
    # archive, not Debian's, has it); python3-evdev: the touch
    # panel (the venv sees both through --system-site-packages); fonts with Czech letters
    # for the kiosk. pygame-ce's wheel brings its own SDL but loads the GPU's libraries
    # (GBM, DRM, EGL, GLES and Mesa's drivers) from the system for KMS/DRM. v4l-utils:
    # cec-ctl, the box on the TV's HDMI-CEC (the TV's remote, waking the TV).
    local want=(python3 python3-venv python3-evdev fonts-dejavu-core
        libdrm2 libgbm1 libegl1 libegl-mesa0 libgles2 libgl1-mesa-dri v4l-utils)
    local updated=0
    if ! installed python3-lgpio && ! available python3-lgpio && ! simulating; then
        # A fresh image may come without package lists: fetch them before deciding.
        run apt-get update
        updated=1
    fi
    if installed python3-lgpio || available python3-lgpio; then
        want+=(python3-lgpio)
    else
        # Raspberry Pi OS's apt has its own archive (archive.raspberrypi.com) beside
        # Debian's; plain Debian does not. PyPI's lgpio has wheels up to Python 3.12 only:
        # on Python 3.13 (trixie) easel[pi] asks for nothing and the panel is off.
        say "python3-lgpio is not in this system's package lists (not Raspberry Pi OS?):" \
            "Easel takes lgpio from PyPI instead (easel[pi]) where PyPI has it for this" \
            "Python (3.12 and older); otherwise the GPIO panel is off and the on-screen" \
            "buttons stand in (the lobby says so)"
        PIP_EXTRA="[pi]"
    fi
    if [ "$HOTSPOT" = 1 ]; then
        # NetworkManager's shared mode hands out the phones' addresses with dnsmasq.
        want+=(dnsmasq-base)
    fi
    if evdev_needs_build; then
        # Debian's python3-evdev is older than Easel needs: pip compiles a newer one
        # against this kernel's headers.
        want+=(python3-dev build-essential)
    fi
    local missing=() pkg
    for pkg in "${want[@]}"; do
        installed "$pkg" || missing+=("$pkg")
    done
    if [ ${#missing[@]} -eq 0 ]; then
        say "Debian packages already installed: ${want[*]}"
        return 0
    fi
    export DEBIAN_FRONTEND=noninteractive
    [ "$updated" = 1 ] || run apt-get update
    run apt-get install -y --no-install-recommends "${missing[@]}"
}

# --- the user -----------------------------------------------------------------------

make_user() {
    local group
    for group in "${GROUPS_NEEDED[@]}"; do
        # A group the unit names that does not exist stops the service's start (gpio is
        # Raspberry Pi OS's own; a plain Debian lacks it).
        if fresh || ! getent group "$group" >/dev/null; then
            run groupadd --system "$group"
        fi
    done
    local list
    list=$(IFS=,; printf '%s' "${GROUPS_NEEDED[*]}")
    if fresh || ! getent passwd "$USER_NAME" >/dev/null; then
        run useradd --system --user-group --home-dir "$STATE" --no-create-home \
            --shell /usr/sbin/nologin --comment "Easel drawing-games box" \
            --groups "$list" "$USER_NAME"
        return 0
    fi
    local have missing=()
    have=" $(id -nG "$USER_NAME") "
    for group in "${GROUPS_NEEDED[@]}"; do
        [[ $have == *" $group "* ]] || missing+=("$group")
    done
    if [ ${#missing[@]} -eq 0 ]; then
        say "user $USER_NAME exists, in groups $list"
    else
        run usermod --append --groups "$(IFS=,; printf '%s' "${missing[*]}")" "$USER_NAME"
    fi
}

# --- the venv and Easel itself -------------------------------------------------------

venv_ok() {
    local venv="$ROOT$VENV"
    [ -x "$venv/bin/python" ] &&
        grep -qs '^include-system-site-packages = true' "$venv/pyvenv.cfg" &&
        "$venv/bin/python" -c 'import sys' >/dev/null 2>&1
}

install_easel() {
    if venv_ok; then
        say "venv exists: $ROOT$VENV"
    else
        # --system-site-packages: lgpio and evdev come from Debian, not from a compiler.
        # --clear: a venv left broken (e.g. by a Python upgrade) is made again.
        run /usr/bin/python3 -m venv --system-site-packages --clear "$ROOT$VENV"
    fi
    local pip=("$ROOT$VENV/bin/python" -m pip install --disable-pip-version-check
        --no-warn-script-location)
    if simulating; then
        # Printed as if from the checkout; a real run installs from a copy (below).
        run "${pip[@]}" "$REPO$PIP_EXTRA"
        compile_easel
        return 0
    fi
    # pip builds in the source tree (build/, *.egg-info); build from a copy so no
    # root-owned files land in the checkout. pip always reinstalls a local directory, so
    # a re-run is the upgrade.
    local src
    src=$(mktemp -d)
    # shellcheck disable=SC2064  # expand $src now: it is local
    trap "rm -rf -- '$src'" EXIT
    tar -C "$REPO" --exclude=./.git --exclude=./.venv --exclude=./build \
        --exclude='*.egg-info' --exclude='./.*_cache' --exclude=./.bench -cf - . |
        tar -C "$src" -xf -
    run "${pip[@]}" "$src$PIP_EXTRA"
    compile_easel
}

# The service starts from bytecode (compiling the checkout at every start about doubles
# the time to the lobby) and its user may not write the venv: compile it all now rather
# than trust each installer's default. A file that does not compile is only slower.
compile_easel() {
    run "$ROOT$VENV/bin/python" -m compileall -q -j 0 "$ROOT$VENV/lib" ||
        say "some files in $ROOT$VENV/lib did not compile; they are read from source"
}

link_command() {
    local target="$ROOT$COMMAND_LINK"
    if [ "$(readlink -- "$target" 2>/dev/null)" = "$VENV/bin/easel" ]; then
        return 0
    fi
    if [ "$DRY_RUN" = 1 ]; then
        say "would link $target -> $VENV/bin/easel"
        return 0
    fi
    mkdir -p "$(dirname "$target")"
    ln -sfn -- "$VENV/bin/easel" "$target"
    say "linked $target -> $VENV/bin/easel"
}

install_share() {
    make_dir "$SHARE" 0755
    # The documented defaults of the installed version, where the config stub points.
    copy_file "$REPO/config/appliance.toml" "$SHARE/appliance.toml" 0644 "every setting and its default"
    copy_file "$REPO/docs/install.md" "$SHARE/install.md" 0644 "the install guide"
}

# --- the settings --------------------------------------------------------------------

profile_file() {
    case $PROFILE in
        */* | *.toml) printf '%s' "$PROFILE" ;;
        *) printf '%s' "$REPO/config/profiles/$PROFILE.toml" ;;
    esac
}

config_stub() {
    cat <<EOF
# Easel's settings for this box. Nothing set here: every setting has its default.
#
# Every setting, what it does and its default: $SHARE/appliance.toml
# (config/appliance.toml in Easel's source). Copy the lines you want to change here,
# under their [section], then check them and restart Easel:
#   easel check-config
#   sudo systemctl restart easel
# Display profiles to start from: config/profiles/ in Easel's source
# (systemd/install.sh --profile NAME when there is no settings file yet).
EOF
}

install_config() {
    make_dir "$CONFIG_DIR" 0755
    if [ -e "$ROOT$CONFIG" ]; then
        say "kept $ROOT$CONFIG as it is (your settings)"
        if [ -n "$PROFILE" ] && ! grep -qF "from the profile $PROFILE;" "$ROOT$CONFIG"; then
            say "  the $PROFILE profile was not applied: copy the lines you want from" \
                "$(profile_file) into it by hand"
        fi
    elif [ -n "$PROFILE" ]; then
        # Readable by all (0644): `easel check-config` runs as any user, and the Wi-Fi
        # password in it is shown to the whole table as a QR code anyway.
        {
            printf '# Written by systemd/install.sh from the profile %s; yours to edit.\n' "$PROFILE"
            printf '# Every setting and its default: %s/appliance.toml\n\n' "$SHARE"
            cat "$(profile_file)"
        } | tv_size_for_this_pi | write_file "$CONFIG" 0644 "settings from the $PROFILE profile"
    else
        config_stub | write_file "$CONFIG" 0644 "settings: all defaults"
    fi
    if [ "$HOTSPOT" = 1 ]; then set_wifi_config; fi
}

# Sets [wifi] ssid, password and security in the settings, keeping every other line.
set_wifi_config() {
    local target="$ROOT$CONFIG"
    if [ "$DRY_RUN" = 1 ]; then
        say "would set [wifi] ssid = \"$HOTSPOT_SSID\", password, security = \"WPA\" in $target"
        return 0
    fi
    /usr/bin/python3 - "$target" "$HOTSPOT_SSID" "$HOTSPOT_PASSWORD" <<'PY'
import json
import os
import re
import sys
import tempfile
import tomllib

path, ssid, password = sys.argv[1:4]
wanted = {"ssid": ssid, "password": password, "security": "WPA"}
with open(path, encoding="utf-8") as fh:
    before = fh.read()
lines = before.splitlines()
header = re.compile(r"^\s*\[")
start = next((i for i, line in enumerate(lines) if re.match(r"^\s*\[wifi\]\s*(#.*)?$", line)), None)
if start is None:
    while lines and not lines[-1].strip():
        lines.pop()
    lines += ["", "[wifi]", "# The phones' network: the hotspot systemd/install.sh --hotspot made."]
    start = len(lines) - 2
end = next((i for i in range(start + 1, len(lines)) if header.match(lines[i])), len(lines))
while end > start + 1 and not lines[end - 1].strip():
    end -= 1  # new keys go after the section's last line, before the blank ones
for key, value in wanted.items():
    # A JSON string is a valid TOML basic string (quotes and backslashes escaped).
    line = f"{key} = {json.dumps(value, ensure_ascii=False)}"
    for i in range(start + 1, end):
        if re.match(rf"^\s*{key}\s*=", lines[i]):
            lines[i] = line
            break
    else:
        lines.insert(end, line)
        end += 1
text = "\n".join(lines) + "\n"
if text == before:
    print(f"install.sh: [wifi] in {path} already names {json.dumps(ssid, ensure_ascii=False)}")
    sys.exit(0)
tomllib.loads(text)  # never leave a file behind that Easel cannot read
fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path))
with os.fdopen(fd, "w", encoding="utf-8") as fh:
    fh.write(text)
os.chmod(tmp, os.stat(path).st_mode & 0o7777)
os.replace(tmp, path)
print(f"install.sh: set [wifi] ssid = {json.dumps(ssid, ensure_ascii=False)} and its password"
      f" in {path} (the lobby's Wi-Fi QR code)")
PY
}

check_config() {
    # Catch a bad setting now, with its message, rather than as a box that keeps
    # restarting. HOME is the service's: no one's personal config file is read.
    local check=(env -u XDG_CONFIG_HOME HOME="$STATE" "$VENV/bin/easel" check-config)
    if simulating; then
        run "${check[@]}"
        return 0
    fi
    say "checking the settings ($ROOT$CONFIG)"
    if ! "${check[@]}" >/dev/null; then
        die "the settings in $CONFIG have a problem (said above): fix it, then run this again"
    fi
}

# --- the boot ------------------------------------------------------------------------

cmdline_file() {
    local f
    # Bookworm mounts the boot partition at /boot/firmware; older systems at /boot.
    for f in /boot/firmware/cmdline.txt /boot/cmdline.txt; do
        if [ -f "$ROOT$f" ]; then
            printf '%s' "$ROOT$f"
            return 0
        fi
    done
}

has_arg() { # KEY WORDS...: is KEY or KEY=... among WORDS
    local key=$1 word
    shift
    for word in "$@"; do
        if [ "$word" = "$key" ] || [ "${word%%=*}" = "$key" ]; then return 0; fi
    done
    return 1
}

# cmdline.txt is one line; rewritten whole through a temporary file on the same (FAT)
# partition, with a copy of the original kept once.
write_cmdline() { # FILE WORDS...
    local file=$1
    shift
    [ -e "$file.before-easel" ] || cp -p -- "$file" "$file.before-easel"
    printf '%s\n' "$*" >"$file.easel-new"
    mv -f -- "$file.easel-new" "$file"
}

quiet_boot() {
    local file words=() added=() arg
    file=$(cmdline_file)
    if [ -z "$file" ]; then
        say "no cmdline.txt in $ROOT/boot/firmware or $ROOT/boot: boot text left as it is"
        return 0
    fi
    read -r -a words <"$file" || true
    for arg in "${BOOT_ARGS[@]}"; do
        # A key already there (e.g. loglevel=7 set on purpose) is left as it is.
        has_arg "${arg%%=*}" "${words[@]}" || added+=("$arg")
    done
    if [ ${#added[@]} -eq 0 ]; then
        say "boot text already quiet: $file"
        return 0
    fi
    if [ "$DRY_RUN" = 1 ]; then
        say "would add '${added[*]}' to $file"
        return 0
    fi
    write_cmdline "$file" "${words[@]}" "${added[@]}"
    mkdir -p "$(dirname "$ROOT$BOOT_RECORD")"
    printf '%s\n' "${added[@]}" >>"$ROOT$BOOT_RECORD"
    say "added '${added[*]}' to $file (quiet boot, from the next boot on)"
}

unquiet_boot() {
    local file record="$ROOT$BOOT_RECORD" words=() kept=() added=() word
    file=$(cmdline_file)
    [ -n "$file" ] && [ -f "$record" ] || return 0
    mapfile -t added <"$record"
    read -r -a words <"$file" || true
    for word in "${words[@]}"; do
        has_word "$word" "${added[@]}" || kept+=("$word")
    done
    [ ${#kept[@]} -eq ${#words[@]} ] && return 0
    if [ "$DRY_RUN" = 1 ]; then
        say "would remove '${added[*]}' from $file"
        return 0
    fi
    write_cmdline "$file" "${kept[@]}"
    say "removed '${added[*]}' from $file"
    # The copy kept at install is now the same as the file: nothing left to keep it for.
    if cmp -s "$file" "$file.before-easel"; then
        rm -f -- "$file.before-easel"
    fi
}

# The Pi's model from the device tree ("Raspberry Pi 4 Model B Rev 1.4"), or nothing.
pi_model() {
    tr -d '\0' 2>/dev/null <"$ROOT/proc/device-tree/model" || true
}

# A TV on HDMI: the kernel's mode for the port, so the console (and the kiosk, which takes
# the console's mode) runs at 1920x1080 rather than a 4K TV's 3840x2160 drawn in software,
# 1280x720 on a Pi 3 or Zero 2 W. The D forces the port on: a TV switched off at boot
# would otherwise leave no screen for the kiosk to open. Any video=HDMI-A-1: already
# there is left as it is (set on purpose).
is_tv_profile() { [ "${PROFILE##*/}" = hdmi-tv ] || [ "${PROFILE##*/}" = hdmi-tv.toml ]; }

small_pi() {
    case $(pi_model) in
        *"Raspberry Pi 3"* | *"Zero 2"*) return 0 ;;
    esac
    return 1
}

# The hdmi-tv profile's settings as they go into the settings file: on a Pi 3 or Zero 2 W
# the kiosk draws 1280x720, the mode tv_video_mode gives the port there.
tv_size_for_this_pi() {
    if is_tv_profile && small_pi; then
        sed -e 's/^width = 1920$/width = 1280  # 720p on this Pi 3 or Zero 2 W (the installer)/' \
            -e 's/^height = 1080$/height = 720/'
    else
        cat
    fi
}

tv_video_mode() {
    is_tv_profile || return 0
    local file words=() word mode=1920x1080@60D model
    file=$(cmdline_file)
    if [ -z "$file" ]; then
        say "no cmdline.txt: the TV's video mode is left to the kernel"
        return 0
    fi
    model=$(pi_model)
    if small_pi; then mode=1280x720@60D; fi
    read -r -a words <"$file" || true
    for word in "${words[@]}"; do
        if [[ $word == video=HDMI-A-1:* ]]; then
            say "the TV's video mode is already set: $word ($file)"
            return 0
        fi
    done
    word="video=HDMI-A-1:$mode"
    if [ "$DRY_RUN" = 1 ]; then
        say "would add '$word' to $file"
        return 0
    fi
    write_cmdline "$file" "${words[@]}" "$word"
    mkdir -p "$(dirname "$ROOT$BOOT_RECORD")"
    printf '%s\n' "$word" >>"$ROOT$BOOT_RECORD"
    say "added '$word' to $file (${model:-this Pi}; the TV's mode from the next boot on)"
}

has_word() { # WORD LIST...
    local word=$1 each
    shift
    for each in "$@"; do [ "$each" = "$word" ] && return 0; done
    return 1
}

# --- the hotspot ---------------------------------------------------------------------

hotspot_exists() {
    ! fresh && command -v nmcli >/dev/null 2>&1 &&
        nmcli -t -f NAME connection show 2>/dev/null | grep -qxF "$HOTSPOT_CON"
}

# --- who runs this: over SSH, or at the Pi's own keyboard ------------------------------
#
# sudo hides both: env_reset drops SSH_CONNECTION, and use_pty gives the installer its own
# terminal (/dev/pts/N, even at the console on tty1). What sudo keeps: the logind session
# the process runs in (loginctl's "self"), the environment and terminal of the login shell
# that ran sudo (an ancestor), and the sshd process above it with its TCP connection.

# The PIDs above this script, nearest first (the process tree from /proc).
ancestors() {
    local pid=$$ stat rest ppid
    while [ "$pid" -gt 1 ] && [ -r "/proc/$pid/stat" ]; do
        stat=$(<"/proc/$pid/stat")
        rest=${stat##*) } # the command's name may hold spaces and brackets
        read -r _ ppid _ <<<"$rest"
        [ -n "$ppid" ] && [ "$ppid" -gt 0 ] || return 0
        printf '%s\n' "$ppid"
        pid=$ppid
    done
}

# One property of this process's logind session (empty when there is no logind).
session_property() { # NAME
    loginctl show-session self --property="$1" --value 2>/dev/null || true
}

# The address of the computer this session's SSH connection comes from, or nothing.
ssh_peer() {
    fresh && return 0
    local peer="" pid line
    if [ -n "${SSH_CONNECTION:-}" ]; then # root's own login, or sudo -E
        peer=${SSH_CONNECTION%% *}
    elif [ "$(session_property Remote)" = yes ]; then
        peer=$(session_property RemoteHost)
    fi
    if [ -z "$peer" ]; then
        for pid in $(ancestors); do
            # The login shell that ran sudo still has it (readable as root).
            line=$(tr '\0' '\n' 2>/dev/null <"/proc/$pid/environ" | grep -m 1 '^SSH_CONNECTION=' || true)
            if [ -n "$line" ]; then
                line=${line#SSH_CONNECTION=}
                peer=${line%% *}
                break
            fi
            # sshd itself: its established connection's far end.
            if [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = sshd ] && command -v ss >/dev/null 2>&1; then
                peer=$(ss -Htnp state established 2>/dev/null | grep -m 1 "pid=$pid," |
                    awk '{print $4}' || true)
                peer=${peer%:*}
                peer=${peer#[}
                peer=${peer%]}
                peer=${peer#::ffff:}
                [ -n "$peer" ] && break
            fi
        done
    fi
    printf '%s' "$peer"
}

# True when this very session reaches the Pi over Wi-Fi: turning the Wi-Fi into a hotspot
# would cut it (and this installer) off. An SSH session whose route is unknown counts.
ssh_over_wifi() {
    local peer route
    peer=$(ssh_peer)
    [ -n "$peer" ] || return 1
    route=$(ip -o route get "$peer" 2>/dev/null || true)
    [ -z "$route" ] || [[ $route == *" dev wl"* ]]
}

# True when this runs at the Pi's own keyboard on tty1, the terminal the kiosk takes over:
# restarting Easel now would hang up this login (TTYVHangup=) and the installer with it.
at_console() {
    fresh && return 1
    local pid tty_nr
    [ "$(tty 2>/dev/null || true)" = /dev/tty1 ] && return 0
    [ "$(session_property TTY)" = tty1 ] && return 0
    for pid in $(ancestors); do
        # Field 7 of /proc/PID/stat: the controlling terminal; tty1 is major 4, minor 1.
        tty_nr=$(sed 's/.*) //' "/proc/$pid/stat" 2>/dev/null | awk '{print $5}')
        [ "$tty_nr" = 1025 ] && return 0
    done
    return 1
}

make_hotspot() {
    if ! simulating && ! command -v nmcli >/dev/null 2>&1; then
        die "--hotspot needs NetworkManager (nmcli), which Raspberry Pi OS trixie and Bookworm have"
    fi
    # WPA2 with CCMP only and PMF off: what phones (iPhones included) join without a
    # warning, and what the Pi's Wi-Fi chip can serve. autoconnect-priority: at boot the
    # hotspot wins over a Wi-Fi network set up in Raspberry Pi Imager.
    local settings=(802-11-wireless.mode ap
        802-11-wireless.band bg ipv4.method shared ipv6.method ignore
        wifi-sec.key-mgmt wpa-psk wifi-sec.psk "$HOTSPOT_PASSWORD" wifi-sec.proto rsn
        wifi-sec.pairwise ccmp wifi-sec.group ccmp wifi-sec.pmf disable
        connection.autoconnect yes connection.autoconnect-priority 100)
    if hotspot_exists; then
        run nmcli connection modify "$HOTSPOT_CON" 802-11-wireless.ssid "$HOTSPOT_SSID" \
            "${settings[@]}"
    else
        run nmcli connection add type wifi ifname wlan0 con-name "$HOTSPOT_CON" \
            ssid "$HOTSPOT_SSID" "${settings[@]}"
    fi
    if ssh_over_wifi; then
        say "not switching the Wi-Fi to the hotspot now: this SSH session ($(ssh_peer))" \
            "runs over the Wi-Fi and would be cut off. It starts at the next boot" \
            "(sudo reboot), or at the Pi: sudo nmcli connection up $HOTSPOT_CON"
    elif ! run nmcli connection up "$HOTSPOT_CON"; then
        # Easel still starts: the phones can use another network, and the log says more.
        say "warning: the hotspot did not come up (nmcli said why, above): is the Wi-Fi" \
            "country set? (sudo raspi-config, Localisation Options, WLAN Country)"
    fi
}

# --- the service ---------------------------------------------------------------------

start_service() {
    run systemctl daemon-reload
    run systemctl enable "$UNIT"
    # tty1 belongs to the kiosk from now on (the unit's Conflicts= stops the getty when
    # Easel starts; disabled, it is not started at boot to race for the screen). Logins
    # stay possible over SSH; --uninstall gives tty1 back.
    run systemctl disable getty@tty1.service
    if at_console; then
        say "not starting Easel now: it takes over this screen (tty1) and would end this" \
            "login. Restart the Pi to start it: sudo reboot"
        return 0
    fi
    # Type=notify: this returns once the lobby is on the screen, or fails.
    if ! run systemctl restart "$UNIT"; then
        say "Easel did not come up. The last lines of its log (journalctl -u easel):"
        journalctl -u easel -n 25 --no-pager || true
        exit 1
    fi
}

# --- the system ------------------------------------------------------------------------

# 32-bit Raspberry Pi OS (armhf, and armel on the first Pis) cannot run Easel: pygame-ce
# and msgspec publish no armv7l wheels and this installer brings no compilers. dpkg's
# architecture, not the kernel's: a Pi 4 running 32-bit Raspberry Pi OS boots a 64-bit
# kernel (uname -m says aarch64) under a 32-bit system.
refuse_32_bit() {
    local arch=""
    fresh || arch=$(dpkg --print-architecture 2>/dev/null || true)
    case $arch in
        armhf | armel | i386)
            die "this is a 32-bit system ($arch): Easel needs 64-bit Raspberry Pi OS" \
                "(arm64). Its kiosk library (pygame-ce) and message library (msgspec) have no" \
                "32-bit ARM builds, and building them on the Pi needs compilers and hours." \
                "Write \"Raspberry Pi OS Lite (64-bit)\" to the card (docs/install.md, step 1);" \
                "every Pi from the Pi 3 and the Zero 2 W on runs it."
            ;;
    esac
}

# --- install and uninstall -------------------------------------------------------------

do_install() {
    if [ -n "$PROFILE" ] && [ ! -f "$(profile_file)" ]; then
        die "no profile '$PROFILE' ($(profile_file)); the profiles: $(profile_names)"
    fi
    refuse_32_bit
    if [ -r /etc/os-release ] && ! grep -Eq '^VERSION_CODENAME="?(trixie|bookworm)' /etc/os-release; then
        say "warning: this is not Raspberry Pi OS (or Debian) trixie or Bookworm; going on, but untested"
    fi
    install_packages
    make_user
    make_dir "$OPT" 0755
    install_easel
    link_command
    install_share
    install_config
    copy_file "$REPO/systemd/easel.service" "$UNIT_DEST" 0644 "the systemd unit"
    quiet_boot
    tv_video_mode
    check_config
    start_service
    if [ "$DRY_RUN" = 1 ]; then
        if [ "$HOTSPOT" = 1 ]; then make_hotspot; fi
        say "dry run done: nothing was changed"
        return 0
    fi
    say "done. Easel starts by itself at every boot; the lobby shows where phones join."
    say "settings: $CONFIG (check: easel check-config); data: $STATE;" \
        "log: journalctl -u easel; upgrade: run this installer again"
    # The very last step: switching the Wi-Fi to the hotspot may end a session that runs
    # over another Wi-Fi (or over the hotspot's own radio), so nothing may come after it.
    if [ "$HOTSPOT" = 1 ]; then make_hotspot; fi
}

do_uninstall() {
    if [ -e "$ROOT$UNIT_DEST" ]; then
        run systemctl disable --now "$UNIT"
    fi
    remove "$UNIT_DEST"
    run systemctl daemon-reload
    unquiet_boot
    remove "$OPT"
    if [ "$(readlink -- "$ROOT$COMMAND_LINK" 2>/dev/null)" = "$VENV/bin/easel" ]; then
        remove "$COMMAND_LINK"
    fi
    # The login prompt back on the screen.
    run systemctl enable getty@tty1.service
    run systemctl start getty@tty1.service
    if hotspot_exists; then
        run nmcli connection delete "$HOTSPOT_CON"
    fi
    if [ "$DRY_RUN" = 1 ]; then
        say "dry run done: nothing was changed"
        return 0
    fi
    say "Easel is uninstalled. Kept: the settings in $ROOT$CONFIG_DIR, the games' data in" \
        "$ROOT$STATE and the user $USER_NAME (it owns the data)."
    say "To remove those too: sudo rm -r $CONFIG_DIR $STATE && sudo userdel $USER_NAME"
}

main() {
    local given=("$@")
    while [ $# -gt 0 ]; do
        case $1 in
            --profile)
                [ $# -ge 2 ] || die "--profile needs a name: $(profile_names)"
                PROFILE=$2
                shift 2
                ;;
            --profile=*)
                PROFILE=${1#*=}
                shift
                ;;
            --hotspot)
                [ $# -ge 3 ] || die "--hotspot needs a network name and a password"
                HOTSPOT=1 HOTSPOT_SSID=$2 HOTSPOT_PASSWORD=$3
                shift 3
                ;;
            --root)
                [ $# -ge 2 ] || die "--root needs a directory"
                ROOT=$2
                shift 2
                ;;
            --root=*)
                ROOT=${1#*=}
                shift
                ;;
            --dry-run) DRY_RUN=1 && shift ;;
            --uninstall) ACTION=uninstall && shift ;;
            -h | --help)
                usage
                exit 0
                ;;
            *) die "unknown option '$1' (see --help)" ;;
        esac
    done
    if [ -n "$ROOT" ]; then
        [ -d "$ROOT" ] || die "--root $ROOT is not a directory"
        ROOT=$(cd -- "$ROOT" && pwd)
        [ "$ROOT" != / ] || die "--root / is the real system: leave --root out"
    fi
    if [ "$ACTION" = uninstall ] && { [ -n "$PROFILE" ] || [ "$HOTSPOT" = 1 ]; }; then
        die "--uninstall takes no --profile or --hotspot"
    fi
    if [ "$HOTSPOT" = 1 ]; then
        # The same limits Easel's settings check ([wifi] ssid and password).
        local ssid_bytes
        ssid_bytes=$(printf '%s' "$HOTSPOT_SSID" | wc -c)
        if [ "$ssid_bytes" -lt 1 ] || [ "$ssid_bytes" -gt 32 ]; then
            die "the hotspot's name must be 1 to 32 bytes long"
        fi
        # A WPA passphrase: 8 to 63 printable ASCII characters.
        if [ ${#HOTSPOT_PASSWORD} -lt 8 ] || [ ${#HOTSPOT_PASSWORD} -gt 63 ] ||
            LC_ALL=C grep -q '[^ -~]' <<<"$HOTSPOT_PASSWORD"; then
            die "the hotspot's password must be 8 to 63 characters long (letters, digits," \
                "punctuation; no accents)"
        fi
    fi
    if ! simulating && [ "$(id -u)" -ne 0 ]; then
        die "this changes the system and needs root: sudo $0 $(quoted "${given[@]}") (or --dry-run to see what it would do)"
    fi
    if [ ! -f "$REPO/pyproject.toml" ] || [ ! -f "$REPO/systemd/easel.service" ]; then
        die "run it from inside Easel's source ($REPO has no pyproject.toml)"
    fi
    if [ "$DRY_RUN" = 1 ]; then
        say "dry run: nothing is changed; each step is printed"
    fi
    if [ -n "$ROOT" ]; then
        say "files go under $ROOT; system commands are printed, not run"
    fi
    "do_$ACTION"
}

main "$@"
