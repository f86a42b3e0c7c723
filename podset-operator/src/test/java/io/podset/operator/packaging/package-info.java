/** Checks of the operator as packaged for its image: its jar, its {@code lib/}, its manifest. */
package io.podset.operator.packaging;
