/**
 * Owner references and finalizers, edited on objects the caller is about to write.
 *
 * <p>These helpers change the object they are given and make no API call. Never pass an object read
 * from an informer cache: cached objects are shared and must not be mutated; copy first.
 */
@NullMarked
package io.podset.runtime.ownership;

import org.jspecify.annotations.NullMarked;
