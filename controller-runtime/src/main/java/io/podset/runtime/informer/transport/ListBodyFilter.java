package io.podset.runtime.informer.transport;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * Passes a list response body (a JSON object with {@code metadata} and {@code items}) through to
 * the decoder while following its structure byte by byte, and:
 *
 * <ul>
 *   <li>hands the list's continue token ({@code metadata.continue}) to a callback as soon as it has
 *       been read, before the items that follow it;
 *   <li>optionally replaces the {@code metadata.managedFields} of each listed object by {@code
 *       null} when it has entries (an empty array is passed as is), so the decoder never reads
 *       them: exactly what {@link io.podset.runtime.informer.InformerOptions#stripManagedFields()}
 *       would leave of them.
 * </ul>
 *
 * <p>Only those two places are touched; everything else, including managed fields elsewhere (in a
 * pod template, say), passes unchanged. The input is expected to be JSON; on malformed input the
 * output is just as malformed, and the decoder reports it.
 */
final class ListBodyFilter extends InputStream {

  // What a container open at depth 1 to 4 is; anything deeper, or elsewhere, is OTHER.
  private static final byte OTHER = 0;
  private static final byte ROOT = 1;
  private static final byte LIST_META = 2;
  private static final byte ITEMS = 3;
  private static final byte ITEM = 4;
  private static final byte ITEM_META = 5;
  private static final int TRACKED = 5;

  // The keys that matter, by the role of the object they are in.
  private static final byte KEY_OTHER = 0;
  private static final byte KEY_METADATA = 1;
  private static final byte KEY_ITEMS = 2;
  private static final byte KEY_CONTINUE = 3;
  private static final byte KEY_MANAGED_FIELDS = 4;
  private static final int MAX_KEY = 16;

  private static final byte[] METADATA = ascii("metadata");
  private static final byte[] ITEMS_KEY = ascii("items");
  private static final byte[] CONTINUE = ascii("continue");
  private static final byte[] MANAGED_FIELDS = ascii("managedFields");
  private static final byte[] NULL = ascii("null");
  private static final byte[] EMPTY = ascii("[]");

  private final InputStream in;
  private final boolean dropManagedFields;
  private final Consumer<String> onContinue;

  private final byte[] buffer = new byte[16 * 1024];
  private int position;
  private int limit;
  private boolean eof;
  // Bytes to emit before any further input (a replacement), and how many are left.
  private byte @Nullable [] pending;
  private int pendingAt;

  // Structure: depth of open containers; for depths 1..TRACKED, the role, whether an object
  // expects a key next, and its current key.
  private int depth;
  private final byte[] role = new byte[TRACKED + 1];
  private final boolean[] expectKey = new boolean[TRACKED + 1];
  private final byte[] key = new byte[TRACKED + 1];
  private boolean inString;
  private boolean escaped;
  // The key being read (a string in key position of a tracked object): its first bytes.
  private boolean readingKey;
  private final byte[] keyBytes = new byte[MAX_KEY];
  private int keyLength;
  // The continue token being read, or null.
  private @Nullable ByteArrayOutputStream token;
  // Managed fields being replaced: after their '[' (awaiting the first element or ']'), then
  // skipped up to the matching ']' (skipDepth > 0).
  private boolean awaitingFirst;
  private int skipDepth;

  ListBodyFilter(InputStream in, boolean dropManagedFields, Consumer<String> onContinue) {
    this.in = Objects.requireNonNull(in, "in");
    this.dropManagedFields = dropManagedFields;
    this.onContinue = Objects.requireNonNull(onContinue, "onContinue");
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    int n = read(one, 0, 1);
    return n < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] out, int off, int len) throws IOException {
    Objects.checkFromIndexSize(off, len, out.length);
    if (len == 0) {
      return 0;
    }
    int written = 0;
    while (written < len) {
      if (pending != null) {
        int n = Math.min(len - written, pending.length - pendingAt);
        System.arraycopy(pending, pendingAt, out, off + written, n);
        written += n;
        pendingAt += n;
        if (pendingAt == pending.length) {
          pending = null;
        }
        continue;
      }
      if (position == limit) {
        if (written > 0 || !fill()) {
          break;
        }
      }
      written += filter(out, off + written, len - written);
    }
    return written == 0 && eof && pending == null ? -1 : written;
  }

  /**
   * Reads what is left of the input (after a complete list, only the end of the HTTP body), then
   * closes it: an HTTP client may drop, or even have reused, the connection of a body closed
   * unread.
   */
  @Override
  public void close() throws IOException {
    try (in) {
      in.transferTo(OutputStream.nullOutputStream());
    } catch (IOException e) {
      // a broken body: closed all the same
    }
  }

  private boolean fill() throws IOException {
    if (eof) {
      return false;
    }
    int n = in.read(buffer, 0, buffer.length);
    if (n < 0) {
      eof = true;
      return false;
    }
    position = 0;
    limit = n;
    return true;
  }

  /** Moves input to {@code out} up to its room or a replacement; returns the bytes written. */
  private int filter(byte[] out, int off, int room) {
    int written = 0;
    while (position < limit && written < room && pending == null) {
      if (skipDepth > 0 || awaitingFirst) {
        skip(buffer[position++]);
        continue;
      }
      int run = plainRun(Math.min(limit, position + room - written));
      if (run > 0) {
        // Bytes that change no state: copied in one go.
        System.arraycopy(buffer, position, out, off + written, run);
        position += run;
        written += run;
        continue;
      }
      byte b = buffer[position++];
      if (b == '[' && !inString && dropManagedFields && atManagedFieldsValue()) {
        // Held back until the first element tells whether the array is empty.
        awaitingFirst = true;
        continue;
      }
      out[off + written++] = b;
      if (inString) {
        inStringByte(b);
      } else {
        structural(b);
      }
    }
    return written;
  }

  /**
   * How many bytes from {@code position} (up to {@code end}) can pass without looking at them one
   * by one: inside a string nobody captures, up to a quote or backslash; outside strings below the
   * tracked depths, up to a quote or bracket. Elsewhere zero.
   */
  private int plainRun(int end) {
    int i = position;
    if (inString) {
      if (escaped || readingKey || token != null) {
        return 0;
      }
      while (i < end) {
        byte c = buffer[i];
        if (c == '"' || c == '\\') {
          break;
        }
        i++;
      }
    } else if (depth > TRACKED) {
      while (i < end) {
        byte c = buffer[i];
        if (c == '"' || c == '{' || c == '}' || c == '[' || c == ']') {
          break;
        }
        i++;
      }
    }
    return i - position;
  }

  private void inStringByte(byte b) {
    if (escaped) {
      escaped = false;
    } else if (b == '\\') {
      escaped = true;
    } else if (b == '"') {
      inString = false;
      endString();
      return;
    }
    if (readingKey) {
      if (keyLength < MAX_KEY) {
        keyBytes[keyLength] = b;
      }
      keyLength++;
    } else if (token != null) {
      token.write(b);
    }
  }

  private void structural(byte b) {
    switch (b) {
      case '"' -> startString();
      case '{', '[' -> open(b == '{');
      case '}', ']' -> depth--;
      case ':' -> {
        if (depth <= TRACKED) {
          expectKey[depth] = false;
        }
      }
      case ',' -> {
        if (depth <= TRACKED) {
          expectKey[depth] = isObjectRole(role[depth]);
        }
      }
      default -> {
        // whitespace and the bytes of numbers, true, false, null
      }
    }
  }

  private void open(boolean object) {
    int parent = depth;
    depth++;
    if (depth > TRACKED) {
      return;
    }
    byte r = OTHER;
    if (parent == 0) {
      r = object ? ROOT : OTHER;
    } else if (parent <= TRACKED) {
      byte p = role[parent];
      byte k = key[parent];
      if (p == ROOT && k == KEY_METADATA && object) {
        r = LIST_META;
      } else if (p == ROOT && k == KEY_ITEMS && !object) {
        r = ITEMS;
      } else if (p == ITEMS && object) {
        r = ITEM;
      } else if (p == ITEM && k == KEY_METADATA && object) {
        r = ITEM_META;
      }
    }
    role[depth] = r;
    expectKey[depth] = object && r != OTHER;
    key[depth] = KEY_OTHER;
  }

  /** Whether the next value is the managed fields of a listed object. */
  private boolean atManagedFieldsValue() {
    return depth >= 1
        && depth <= TRACKED
        && role[depth] == ITEM_META
        && !expectKey[depth]
        && key[depth] == KEY_MANAGED_FIELDS;
  }

  private static boolean isObjectRole(byte r) {
    return r == ROOT || r == LIST_META || r == ITEM || r == ITEM_META;
  }

  private void startString() {
    inString = true;
    escaped = false;
    if (depth >= 1 && depth <= TRACKED && isObjectRole(role[depth])) {
      if (expectKey[depth]) {
        readingKey = true;
        keyLength = 0;
      } else if (role[depth] == LIST_META && key[depth] == KEY_CONTINUE) {
        token = new ByteArrayOutputStream();
      }
    }
  }

  private void endString() {
    if (readingKey) {
      key[depth] = keyLength > MAX_KEY ? KEY_OTHER : keyOf(role[depth], keyBytes, keyLength);
      readingKey = false;
    } else if (token != null) {
      String raw = token.toString(StandardCharsets.UTF_8);
      token = null;
      onContinue.accept(unescape(raw));
    }
  }

  private static byte keyOf(byte role, byte[] bytes, int length) {
    return switch (role) {
      case ROOT ->
          is(METADATA, bytes, length)
              ? KEY_METADATA
              : is(ITEMS_KEY, bytes, length) ? KEY_ITEMS : KEY_OTHER;
      case LIST_META -> is(CONTINUE, bytes, length) ? KEY_CONTINUE : KEY_OTHER;
      case ITEM -> is(METADATA, bytes, length) ? KEY_METADATA : KEY_OTHER;
      case ITEM_META -> is(MANAGED_FIELDS, bytes, length) ? KEY_MANAGED_FIELDS : KEY_OTHER;
      default -> KEY_OTHER;
    };
  }

  private static boolean is(byte[] name, byte[] bytes, int length) {
    return Arrays.equals(name, 0, name.length, bytes, 0, length);
  }

  /** A byte of managed fields being replaced: consumed, never written. */
  private void skip(byte b) {
    if (awaitingFirst) {
      if (b == ' ' || b == '\n' || b == '\r' || b == '\t') {
        return;
      }
      awaitingFirst = false;
      if (b == ']') {
        emit(EMPTY);
        return;
      }
      emit(NULL);
      skipDepth = 1;
      // b is the first element's first byte: fall through and follow it.
    }
    if (inString) {
      if (escaped) {
        escaped = false;
      } else if (b == '\\') {
        escaped = true;
      } else if (b == '"') {
        inString = false;
      }
      return;
    }
    switch (b) {
      case '"' -> {
        inString = true;
        escaped = false;
      }
      case '{', '[' -> skipDepth++;
      case '}', ']' -> skipDepth--;
      default -> {
        // scalars and separators inside the skipped array
      }
    }
  }

  /** The value of a JSON string's content (between its quotes). */
  static String unescape(String raw) {
    if (raw.indexOf('\\') < 0) {
      return raw;
    }
    StringBuilder sb = new StringBuilder(raw.length());
    for (int i = 0; i < raw.length(); i++) {
      char c = raw.charAt(i);
      if (c != '\\' || i + 1 >= raw.length()) {
        sb.append(c);
        continue;
      }
      char e = raw.charAt(++i);
      switch (e) {
        case 'b' -> sb.append('\b');
        case 'f' -> sb.append('\f');
        case 'n' -> sb.append('\n');
        case 'r' -> sb.append('\r');
        case 't' -> sb.append('\t');
        case 'u' -> {
          if (i + 4 < raw.length()) {
            sb.append((char) Integer.parseInt(raw.substring(i + 1, i + 5), 16));
            i += 4;
          } else {
            sb.append("\\u");
          }
        }
        default -> sb.append(e); // \" \\ \/
      }
    }
    return sb.toString();
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  private void emit(byte[] bytes) {
    pending = bytes;
    pendingAt = 0;
  }
}
