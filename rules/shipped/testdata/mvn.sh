#!/usr/bin/env bash
# mvn.sh regenerates the test cases of mvn.toml (mvn/CASE.*) from real runs
# of Debian 12's Maven 3.8.7, offline, on Java projects written here for the
# purpose: a build that compiles, one with compiler errors, JUnit 4 tests
# that pass and tests that fail (Surefire's report), and forms cut by a
# filter.
#
# No Maven Central is reached: the plugins and JUnit come from Debian's
# packages (libmaven-compiler-plugin-java, libmaven-resources-plugin-java,
# libsurefire-java, libmaven-jar-plugin-java, junit4), whose repository
# /usr/share/maven-repo is copied (links followed) into $ROOT/repo, the
# local repository each project's .mvn/maven.config names with -o, so the
# commands are typed as an agent types them (mvn test). The timings and
# dates Maven prints are whatever the run gave.
#
# Usage: bash rules/shipped/testdata/mvn.sh
#        (then go test ./rules/shipped -run TestGolden -update)
set -euo pipefail

OUT=$(cd "$(dirname "$0")" && pwd)/mvn
ROOT=/tmp/shrinkrun-corpus/mvn
command -v mvn >/dev/null || { echo "mvn.sh: Maven is not installed (apt-get install maven)" >&2; exit 1; }
[ -d /usr/share/maven-repo/org/apache/maven/plugins/maven-surefire-plugin ] || {
	echo "mvn.sh: apt-get install libmaven-compiler-plugin-java libmaven-resources-plugin-java libsurefire-java libmaven-jar-plugin-java junit4" >&2
	exit 1
}
export LC_ALL=C PATH=/usr/bin:/bin
unset MAVEN_OPTS MAVEN_ARGS
mkdir -p "$ROOT"
. "$(dirname "$0")/caselib.sh"
[ -d "$ROOT/repo" ] || cp -rL /usr/share/maven-repo "$ROOT/repo"

# project NAME: a fresh project at $ROOT/NAME with JUnit 4, offline.
project() {
	local p=$ROOT/$1
	rm -rf "$p" && mkdir -p "$p/.mvn" "$p/src/main/java/shop" "$p/src/test/java/shop"
	printf -- '-o\n-Dmaven.repo.local=%s\n' "$ROOT/repo" >"$p/.mvn/maven.config"
	cat >"$p/pom.xml" <<POM
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>shop</groupId>
  <artifactId>$1</artifactId>
  <version>1.0</version>
  <properties>
    <maven.compiler.source>17</maven.compiler.source>
    <maven.compiler.target>17</maven.compiler.target>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>
  <dependencies>
    <dependency><groupId>junit</groupId><artifactId>junit</artifactId><version>4.13.2</version><scope>test</scope></dependency>
  </dependencies>
</project>
POM
	for i in $(seq 1 12); do
		cat >"$p/src/main/java/shop/Item$i.java" <<JAVA
package shop;

public class Item$i {
    private final int price;

    public Item$i(int price) { this.price = price; }

    public int total(int count) { return price * count; }

    public int discounted(int count) { return total(count) - count * $i; }
}
JAVA
		cat >"$p/src/test/java/shop/Item${i}Test.java" <<JAVA
package shop;

import static org.junit.Assert.assertEquals;
import org.junit.Test;

public class Item${i}Test {
    @Test public void total() { assertEquals(30, new Item$i(10).total(3)); }
    @Test public void discounted() { assertEquals(30 - 3 * $i, new Item$i(10).discounted(3)); }
    @Test public void zero() { assertEquals(0, new Item$i(10).total(0)); }
}
JAVA
	done
	cd "$p"
}

project passing
run compile "mvn compile"
run test_pass "mvn test"
run test_pass_quiet "mvn -q test"

project failing
sed -i 's/return total(count) - count \* 3;/return total(count) - count * 4;/' src/main/java/shop/Item3.java
sed -i 's/return price \* count;/return price * count + 1;/' src/main/java/shop/Item7.java
cat >src/test/java/shop/CartTest.java <<'JAVA'
package shop;

import static org.junit.Assert.assertTrue;
import org.junit.Test;

public class CartTest {
    @Test public void empty() { assertTrue("the cart starts empty", new java.util.ArrayList<Item1>().size() > 0); }
    @Test public void crash() { Object o = null; o.toString(); }
}
JAVA
run test_fail "mvn test"
run test_fail_tail "mvn test | tail -40"
run test_fail_grep "mvn test | grep -E 'Tests run|FAIL|ERROR'"

project broken
cat >src/main/java/shop/Cart.java <<'JAVA'
package shop;

import java.util.List;

public class Cart {
    private List<Item1> items;

    public int total() {
        int sum = 0;
        for (Item1 item : items) {
            sum += item.total(quantity);
        }
        return sum
    }

    public String name() { return missingName(); }
}
JAVA
run compile_errors "mvn compile"
sed -i 's/return sum$/return sum;/' src/main/java/shop/Cart.java
run compile_symbols "mvn -B compile"
