"""The web page of `attn serve` in a real browser: headless Chromium (Debian's chromium and
chromium-driver, which .ci/run installs) driven by Selenium. It loads with no network, translates,
lights up the source words an output word attended to (by pointer and by keyboard), draws the
heat map, shows a summary's key sentences, copies a result, translates an uploaded document for download, and fits a phone-width
screen."""

from pathlib import Path

import pytest

from .test_serve import Server, cli_translations

pytestmark = pytest.mark.browser

CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
webdriver = pytest.importorskip("selenium.webdriver")
if not (Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists()):
    pytest.skip(
        "Debian's chromium and chromium-driver are not installed (.ci/run installs them)", allow_module_level=True
    )


def browser(width: int, height: int):
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--window-size={width},{height}",
    ):
        options.add_argument(argument)
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)


@pytest.fixture(scope="module")
def page(reverse_model):
    running = Server("--models", str(reverse_model))
    yield running
    running.stop()


def translated(driver, url: str, text: str):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get(url)
    WebDriverWait(driver, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#target-lang option"))
    driver.find_element(By.CSS_SELECTOR, "#source-lang").send_keys("sym")
    box = driver.find_element(By.ID, "input")
    box.clear()
    box.send_keys(text)
    driver.find_element(By.ID, "translate").click()
    WebDriverWait(driver, 60).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#output .word"))
    return driver.find_elements(By.CSS_SELECTOR, "#output .word")


def lit(driver) -> list[str]:
    from selenium.webdriver.common.by import By

    return [w.text for w in driver.find_elements(By.CSS_SELECTOR, "#source-words .word") if w.get_attribute("style")]


def test_translates_and_shows_what_each_word_attended_to(page, reverse_model):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    driver = browser(1100, 900)
    try:
        words = translated(driver, page.url + "/", "a0 b1 c2")
        assert " ".join(w.text for w in words) == cli_translations(reverse_model, ["a0 b1 c2"])[0]
        ActionChains(driver).move_to_element(words[0]).perform()
        assert lit(driver)  # the pointed word's source words light up
        ActionChains(driver).move_to_element(driver.find_element(By.ID, "input")).perform()
        assert lit(driver) == []  # the pointer left: nothing lit
        driver.find_element(By.ID, "input").send_keys(Keys.TAB)  # the keyboard: from the text to the first output word
        assert driver.switch_to.active_element == words[0] and lit(driver)
        cells = driver.find_elements(By.CSS_SELECTOR, "#heatmap td")
        assert len(cells) == len(words) * len(driver.find_elements(By.CSS_SELECTOR, "#source-words .word"))
    finally:
        driver.quit()


def test_a_text_of_several_lines_shows_its_alignment_part_by_part(page):
    """Translated in parts, a text's record has its alignment in blocks (alignment null): the page
    had stopped on "Cannot read properties of null"."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    driver = browser(1100, 900)
    try:
        words = translated(driver, page.url + "/", "a0 b1\nc2 a0 b1")
        assert "Cannot" not in driver.find_element(By.ID, "status").text
        ActionChains(driver).move_to_element(words[-1]).perform()
        assert lit(driver)  # a word of the second line lights up the source words it attended to
        cells = driver.find_elements(By.CSS_SELECTOR, "#heatmap td")
        assert len(cells) == len(words) * len(driver.find_elements(By.CSS_SELECTOR, "#source-words .word"))
    finally:
        driver.quit()


def test_a_server_with_api_keys_asks_for_one(reverse_model, tmp_path):
    """With --api-keys every request of the page had been refused: it had no field for a key."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    keys = tmp_path / "keys"
    keys.write_text("secret-1\n")
    running = Server("--models", str(reverse_model), "--api-keys", str(keys))
    driver = browser(1100, 900)
    try:
        driver.get(running.url + "/")
        WebDriverWait(driver, 30).until(lambda d: d.find_element(By.ID, "api-key").is_displayed())
        driver.find_element(By.CSS_SELECTOR, "#source-lang").send_keys("sym")
        box = driver.find_element(By.ID, "input")
        box.clear()
        box.send_keys("a0 b1")
        driver.find_element(By.ID, "translate").click()
        WebDriverWait(driver, 30).until(lambda d: "Invalid API key" in d.find_element(By.ID, "status").text)
        driver.find_element(By.ID, "api-key").send_keys("secret-1")
        driver.find_element(By.ID, "translate").click()
        WebDriverWait(driver, 60).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#output .word"))
    finally:
        driver.quit()
        running.stop()


def test_a_document_is_translated_and_downloaded_and_a_result_copied(page, reverse_model, tmp_path):
    import httpx
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    document = tmp_path / "notes.srt"
    document.write_text("1\n00:00:01,000 --> 00:00:02,000\na0 b1\n\n")
    driver = browser(1100, 900)
    try:
        translated(driver, page.url + "/", "a0 b1 c2")
        driver.find_element(By.ID, "copy").click()
        WebDriverWait(driver, 10).until(lambda d: "Copied" in d.find_element(By.ID, "status").text)
        assert ".srt" in driver.find_element(By.ID, "file").get_attribute("accept")
        driver.find_element(By.ID, "file").send_keys(str(document))
        driver.find_element(By.ID, "translate-file").click()
        WebDriverWait(driver, 60).until(lambda d: d.find_element(By.ID, "download").is_displayed())
        download = httpx.get(driver.find_element(By.ID, "download").get_attribute("href"))
        expected = cli_translations(reverse_model, ["a0 b1"])[0]
        assert download.status_code == 200 and download.text == f"1\n00:00:01,000 --> 00:00:02,000\n{expected}\n\n"
    finally:
        driver.quit()


def test_a_phone_width_screen_needs_no_sideways_scrolling(page):
    driver = browser(500, 844)  # headless Chromium's narrowest window; the phone's screen is emulated
    try:
        driver.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 3, "mobile": True}
        )
        translated(driver, page.url + "/", "a0 b1")
        assert driver.execute_script("return window.innerWidth") == 390
        assert driver.execute_script("return document.documentElement.scrollWidth") <= 390
    finally:
        driver.quit()


def test_a_language_code_the_browser_cannot_name_still_lists(reverse_model, tmp_path):
    """A served model into `pt_BR` broke the page: the browser's language names throw on it."""
    import json
    import shutil

    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    folder = tmp_path / "regional"
    shutil.copytree(reverse_model, folder)
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    (folder / "manifest.json").write_text(json.dumps({**manifest, "target_lang": "pt_BR"}), encoding="utf-8")
    running = Server("--models", str(folder))
    driver = browser(1100, 900)
    try:
        driver.get(running.url + "/")
        WebDriverWait(driver, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#target-lang option"))
        options = [o.get_attribute("value") for o in driver.find_elements(By.CSS_SELECTOR, "#target-lang option")]
        assert "pt_BR" in options and "Cannot reach" not in driver.find_element(By.TAG_NAME, "body").text
    finally:
        driver.quit()
        running.stop()


def test_a_summary_shows_its_headline_word_by_word_and_its_key_sentences(reverse_model):
    """Summarize shows what `attn summarize` prints (the key sentences) below the headline, whose
    words light up the document's words they drew on, as a translation's do; Copy copies both; a
    translation after it shows no key sentences."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait

    article = (
        "The city council approved a new budget on Tuesday. It doubles spending on public transport. "
        "The plan adds three bus lines and extends the tram network to the airport by 2028."
    )
    running = Server("--models", "summarize", "--models", str(reverse_model))
    driver = browser(1100, 900)
    try:
        driver.get(running.url + "/")
        WebDriverWait(driver, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#target-lang option"))
        box = driver.find_element(By.ID, "input")
        box.clear()
        box.send_keys(article)
        driver.find_element(By.ID, "summarize").click()
        WebDriverWait(driver, 60).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#key-sentences li"))
        sentences = [item.text for item in driver.find_elements(By.CSS_SELECTOR, "#key-sentences li")]
        assert len(sentences) == 2 and all(sentence in article for sentence in sentences)
        assert driver.find_elements(By.CSS_SELECTOR, "#output .word") and lit(driver) == []
        driver.execute_script("navigator.clipboard.writeText = async (text) => { window.copied = text; };")
        driver.find_element(By.ID, "copy").click()
        WebDriverWait(driver, 10).until(lambda d: "Copied" in d.find_element(By.ID, "status").text)
        headline, below = driver.execute_script("return window.copied").split("\n\n")
        assert headline and below == " ".join(sentences)  # Copy takes the headline and its key sentences
        box.send_keys(Keys.TAB)
        assert lit(driver)  # the headline's first word lights up the document's words it drew on
        driver.find_element(By.CSS_SELECTOR, "#source-lang").send_keys("sym")
        box.clear()
        box.send_keys("a0 b1 c2")
        driver.find_element(By.ID, "translate").click()
        WebDriverWait(driver, 60).until(lambda d: "sym" in d.find_element(By.ID, "status").text)
        assert not driver.find_element(By.ID, "key-sentences-part").is_displayed()
    finally:
        driver.quit()
        running.stop()
