//! Every language file of the Time Pattern DB reads the phrasings its pages use: at least three
//! per file, each to the exact date (and time where the text has one).

use chrono::DateTime;
use html2rss::engines::timepattern::{DateContext, Precision, TimePatternDb};

/// Wednesday 2024-05-15, 12:00 UTC.
fn context() -> DateContext {
    DateContext::new(DateTime::parse_from_rfc3339("2024-05-15T12:00:00+00:00").unwrap())
}

/// (text, expected RFC 3339 date, the language file of the pattern that reads it).
fn check(cases: &[(&str, &str, &str)]) {
    let db = TimePatternDb::builtin();
    for (text, expected, language) in cases {
        let parsed = db.parse_date(text, &context()).unwrap_or_else(|| panic!("no date in {text:?}"));
        assert_eq!(parsed.date.to_rfc3339(), *expected, "{text:?} read as {}", parsed.pattern);
        assert_eq!(parsed.language, *language, "{text:?} read as {}", parsed.pattern);
        assert_eq!(&text[parsed.span.clone()], text.trim(), "{text:?}: not all of it was read");
    }
}

#[test]
fn numeric() {
    check(&[
        ("2004-07-09 21:08:03", "2004-07-09T21:08:03+00:00", "numeric"),
        ("2021-06-04T21:40:00+03:00", "2021-06-04T21:40:00+03:00", "numeric"),
        ("2018-10-22T00:00:00.000Z", "2018-10-22T00:00:00+00:00", "numeric"),
        ("2020/07/02", "2020-07-02T00:00:00+00:00", "numeric"),
        ("15.03.2005", "2005-03-15T00:00:00+00:00", "numeric"),
        ("2020-08-16 22:26", "2020-08-16T22:26:00+00:00", "numeric"),
        ("05-13", "2024-05-13T00:00:00+00:00", "numeric"),
        ("11:45", "2024-05-15T11:45:00+00:00", "numeric"),
    ]);
}

#[test]
fn english() {
    check(&[
        ("Mar 15 2005", "2005-03-15T00:00:00+00:00", "en"),
        ("March 3rd, 2020", "2020-03-03T00:00:00+00:00", "en"),
        ("Tue, 20 Apr 2021 00:00:00 +0000", "2021-04-20T00:00:00+00:00", "en"),
        ("Wed, 16 October 2019", "2019-10-16T00:00:00+00:00", "en"),
        ("December 15, 2020 at 3:45 pm", "2020-12-15T15:45:00+00:00", "en"),
        ("3 hours ago", "2024-05-15T09:00:00+00:00", "en"),
        ("an hour ago", "2024-05-15T11:00:00+00:00", "en"),
        ("yesterday", "2024-05-14T00:00:00+00:00", "en"),
        ("Jan 14", "2024-01-14T00:00:00+00:00", "en"),
    ]);
}

#[test]
fn german() {
    check(&[
        ("15. März 2005", "2005-03-15T00:00:00+00:00", "de"),
        ("Montag, 4. Mai 2020, 12:30 Uhr", "2020-05-04T12:30:00+00:00", "de"),
        ("vor 2 Tagen", "2024-05-13T12:00:00+00:00", "de"),
        ("gestern, 18:00 Uhr", "2024-05-14T18:00:00+00:00", "de"),
        ("heute, 09:00 Uhr", "2024-05-15T09:00:00+00:00", "de"),
    ]);
}

#[test]
fn french() {
    check(&[
        ("1er mars 2005", "2005-03-01T00:00:00+00:00", "fr"),
        ("lundi 15 février 2021", "2021-02-15T00:00:00+00:00", "fr"),
        ("le 15 août 2020 à 12h30", "2020-08-15T12:30:00+00:00", "fr"),
        ("il y a 3 jours", "2024-05-12T12:00:00+00:00", "fr"),
        ("hier", "2024-05-14T00:00:00+00:00", "fr"),
    ]);
}

#[test]
fn spanish() {
    check(&[
        ("15 de marzo de 2005", "2005-03-15T00:00:00+00:00", "es"),
        ("lunes, 7 de septiembre de 2020 a las 10:15", "2020-09-07T10:15:00+00:00", "es"),
        ("hace 3 días", "2024-05-12T12:00:00+00:00", "es"),
        ("ayer a las 12:30", "2024-05-14T12:30:00+00:00", "es"),
    ]);
}

#[test]
fn italian() {
    check(&[
        ("15 marzo 2005", "2005-03-15T00:00:00+00:00", "it"),
        ("lunedì 3 agosto 2020 alle 18:05", "2020-08-03T18:05:00+00:00", "it"),
        ("3 giorni fa", "2024-05-12T12:00:00+00:00", "it"),
        ("ieri", "2024-05-14T00:00:00+00:00", "it"),
    ]);
}

#[test]
fn portuguese() {
    check(&[
        ("15 de março de 2005", "2005-03-15T00:00:00+00:00", "pt"),
        ("terça-feira, 6 de outubro de 2020 às 14h20", "2020-10-06T14:20:00+00:00", "pt"),
        ("há 3 dias", "2024-05-12T12:00:00+00:00", "pt"),
        ("2 horas atrás", "2024-05-15T10:00:00+00:00", "pt"),
        ("ontem", "2024-05-14T00:00:00+00:00", "pt"),
    ]);
}

#[test]
fn dutch() {
    check(&[
        ("15 maart 2005", "2005-03-15T00:00:00+00:00", "nl"),
        ("maandag 2 november 2020 om 09:30", "2020-11-02T09:30:00+00:00", "nl"),
        ("3 dagen geleden", "2024-05-12T12:00:00+00:00", "nl"),
        ("gisteren", "2024-05-14T00:00:00+00:00", "nl"),
    ]);
}

#[test]
fn russian() {
    check(&[
        ("15 марта 2005 г.", "2005-03-15T00:00:00+00:00", "ru"),
        ("21 сентября 2020, 14:05", "2020-09-21T14:05:00+00:00", "ru"),
        ("3 часа назад", "2024-05-15T09:00:00+00:00", "ru"),
        ("вчера в 12:30", "2024-05-14T12:30:00+00:00", "ru"),
        ("вчера", "2024-05-14T00:00:00+00:00", "ru"),
    ]);
}

#[test]
fn polish() {
    check(&[
        ("15 marca 2005", "2005-03-15T00:00:00+00:00", "pl"),
        ("3 października 2020 r.", "2020-10-03T00:00:00+00:00", "pl"),
        ("3 dni temu", "2024-05-12T12:00:00+00:00", "pl"),
        ("2 godziny temu", "2024-05-15T10:00:00+00:00", "pl"),
        ("wczoraj o 12:30", "2024-05-14T12:30:00+00:00", "pl"),
    ]);
}

#[test]
fn japanese() {
    check(&[
        ("2018年9月18日", "2018-09-18T00:00:00+00:00", "zh-Hans"),
        ("2005年3月15日(火) 12時30分", "2005-03-15T12:30:00+00:00", "ja"),
        ("午前 9 時 23 分", "2024-05-15T09:23:00+00:00", "ja"),
        ("午後 3 時 23 分", "2024-05-14T15:23:00+00:00", "ja"),
        ("3時間前", "2024-05-15T09:00:00+00:00", "ja"),
        ("一昨日 12:30", "2024-05-13T12:30:00+00:00", "ja"),
        ("3日前", "2024-05-12T12:00:00+00:00", "ja"),
    ]);
}

#[test]
fn korean() {
    check(&[
        ("2005년 3월 15일", "2005-03-15T00:00:00+00:00", "ko"),
        ("2020. 9. 21. 오후 3:45", "2020-09-21T15:45:00+00:00", "ko"),
        ("3시간 전", "2024-05-15T09:00:00+00:00", "ko"),
        ("어제", "2024-05-14T00:00:00+00:00", "ko"),
    ]);
}

#[test]
fn chinese_simplified() {
    check(&[
        ("2005 年 5 月 15 日", "2005-05-15T00:00:00+00:00", "zh-Hans"),
        ("2020年07月04日 星期六", "2020-07-04T00:00:00+00:00", "zh-Hans"),
        ("3小时前", "2024-05-15T09:00:00+00:00", "zh-Hans"),
        ("26分钟前", "2024-05-15T11:34:00+00:00", "zh-Hans"),
        ("三天前", "2024-05-12T12:00:00+00:00", "zh-Hans"),
        ("昨天 12:30", "2024-05-14T12:30:00+00:00", "zh-Hans"),
        ("28 日 18: 46", "2024-04-28T18:46:00+00:00", "zh-Hans"),
    ]);
}

#[test]
fn chinese_traditional() {
    check(&[
        ("3小時前", "2024-05-15T09:00:00+00:00", "zh-Hant"),
        ("15分鐘前", "2024-05-15T11:45:00+00:00", "zh-Hant"),
        ("2021年6月4日 下午 3時20分", "2021-06-04T15:20:00+00:00", "zh-Hant"),
        ("剛剛", "2024-05-15T12:00:00+00:00", "zh-Hant"),
    ]);
}

#[test]
fn arabic() {
    check(&[
        ("24 أبريل 2020", "2020-04-24T00:00:00+00:00", "ar"),
        ("الأحد 7 يونيو 2020", "2020-06-07T00:00:00+00:00", "ar"),
        ("24 نيسان 2020", "2020-04-24T00:00:00+00:00", "ar"),
        ("منذ 3 ساعات", "2024-05-15T09:00:00+00:00", "ar"),
        ("أمس", "2024-05-14T00:00:00+00:00", "ar"),
    ]);
}

#[test]
fn turkish() {
    check(&[
        ("24 Nisan 2020", "2020-04-24T00:00:00+00:00", "tr"),
        ("7 Haziran 2020 Pazar, 10:30", "2020-06-07T10:30:00+00:00", "tr"),
        ("3 saat önce", "2024-05-15T09:00:00+00:00", "tr"),
        ("dün", "2024-05-14T00:00:00+00:00", "tr"),
    ]);
}

#[test]
fn dates_inside_text_are_found_and_longest_wins() {
    let db = TimePatternDb::builtin();
    let parsed = db.parse_date("，原文日期：2016-06-30", &context()).unwrap();
    assert_eq!((parsed.pattern.as_str(), parsed.precision), ("yyyy-mm-dd", Precision::Day));
    let parsed = db.parse_date("Posted on 2005-March by admin", &context()).unwrap();
    assert_eq!(parsed.date.to_rfc3339(), "2005-03-01T00:00:00+00:00");
    assert_eq!(parsed.precision, Precision::Month);
    assert!(db.parse_date("© 2024 William Jolitz", &context()).is_none());
    assert!(db.parse_date("1.5k views, 2057 words", &context()).is_none());
}

#[test]
fn romanian() {
    check(&[
        ("20 septembrie 2020", "2020-09-20T00:00:00+00:00", "ro"),
        ("duminică, 20 septembrie 2020, 16:20", "2020-09-20T16:20:00+00:00", "ro"),
        ("3 noiembrie 2021 ora 09:15", "2021-11-03T09:15:00+00:00", "ro"),
        ("acum 3 ore", "2024-05-15T09:00:00+00:00", "ro"),
        ("acum 20 de minute", "2024-05-15T11:40:00+00:00", "ro"),
        ("alaltăieri la ora 16:20", "2024-05-13T16:20:00+00:00", "ro"),
    ]);
}

#[test]
fn czech() {
    check(&[
        ("20. září 2020", "2020-09-20T00:00:00+00:00", "cs"),
        ("neděle 20. září 2020, 16:20", "2020-09-20T16:20:00+00:00", "cs"),
        ("3. května 2021 v 9:05", "2021-05-03T09:05:00+00:00", "cs"),
        ("20. 9. 2020 16:20", "2020-09-20T16:20:00+00:00", "cs"),
        ("před 3 hodinami", "2024-05-15T09:00:00+00:00", "cs"),
        ("včera v 16:20", "2024-05-14T16:20:00+00:00", "cs"),
    ]);
}

#[test]
fn slovak() {
    check(&[
        ("20. septembra 2020", "2020-09-20T00:00:00+00:00", "sk"),
        ("nedeľa 20. septembra 2020 o 16:20", "2020-09-20T16:20:00+00:00", "sk"),
        ("pred 2 dňami", "2024-05-13T12:00:00+00:00", "sk"),
        ("predvčerom", "2024-05-13T00:00:00+00:00", "sk"),
    ]);
}

#[test]
fn hungarian() {
    check(&[
        ("2020. szeptember 20.", "2020-09-20T00:00:00+00:00", "hu"),
        ("2020. szept. 20., vasárnap 16:20", "2020-09-20T16:20:00+00:00", "hu"),
        ("2021. március 3. 9:05", "2021-03-03T09:05:00+00:00", "hu"),
        ("3 órája", "2024-05-15T09:00:00+00:00", "hu"),
        ("tegnap 16:20", "2024-05-14T16:20:00+00:00", "hu"),
    ]);
}

#[test]
fn swedish() {
    check(&[
        ("20 augusti 2020", "2020-08-20T00:00:00+00:00", "sv"),
        ("söndag 20 sep 2020 kl. 16.20", "2020-09-20T16:20:00+00:00", "sv"),
        ("den 3 maj 2021 kl 09:05", "2021-05-03T09:05:00+00:00", "sv"),
        ("för 3 timmar sedan", "2024-05-15T09:00:00+00:00", "sv"),
        ("igår", "2024-05-14T00:00:00+00:00", "sv"),
    ]);
}

#[test]
fn danish() {
    check(&[
        ("3. marts 2021", "2021-03-03T00:00:00+00:00", "da"),
        ("søndag d. 20. sep. 2020 kl. 16.20", "2020-09-20T16:20:00+00:00", "da"),
        ("3. maj 2021, 09:05", "2021-05-03T09:05:00+00:00", "da"),
        ("for 2 dage siden", "2024-05-13T12:00:00+00:00", "da"),
        ("i forgårs kl. 16.20", "2024-05-13T16:20:00+00:00", "da"),
    ]);
}

#[test]
fn norwegian() {
    check(&[
        ("3. desember 2021", "2021-12-03T00:00:00+00:00", "nb"),
        ("søndag 20. desember 2020 kl. 16.20", "2020-12-20T16:20:00+00:00", "nb"),
        ("for 3 timer siden", "2024-05-15T09:00:00+00:00", "da"),
        ("for 2 dager siden", "2024-05-13T12:00:00+00:00", "nb"),
        ("for 3 timar sidan", "2024-05-15T09:00:00+00:00", "nb"),
        ("i forgårs", "2024-05-13T00:00:00+00:00", "da"),
    ]);
}

#[test]
fn finnish() {
    check(&[
        ("20. syyskuuta 2020", "2020-09-20T00:00:00+00:00", "fi"),
        ("sunnuntai 20. syyskuuta 2020 klo 16.20", "2020-09-20T16:20:00+00:00", "fi"),
        ("20.9.2020 klo 16.20", "2020-09-20T16:20:00+00:00", "fi"),
        ("3 tuntia sitten", "2024-05-15T09:00:00+00:00", "fi"),
        ("eilen klo 16.20", "2024-05-14T16:20:00+00:00", "fi"),
    ]);
}
